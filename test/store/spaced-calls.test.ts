import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SpacedCalls } from '../../src/store/postgres/spaced-calls.js';

describe('SpacedCalls', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('calls at once, then once at the end of the interval however many calls came meanwhile', () => {
    let runs = 0;
    const spaced = new SpacedCalls(() => runs++, 20);
    spaced.call();
    expect(runs).toBe(1);
    for (let i = 0; i < 10; i++) spaced.call();
    expect(runs).toBe(1);
    vi.advanceTimersByTime(19);
    expect(runs).toBe(1);
    vi.advanceTimersByTime(1);
    expect(runs).toBe(2);
    vi.advanceTimersByTime(100);
    expect(runs).toBe(2);
    spaced.call();
    expect(runs).toBe(3);
  });

  it('flush runs a waiting call now, and cancel drops it', () => {
    let runs = 0;
    const spaced = new SpacedCalls(() => runs++, 20);
    spaced.call();
    spaced.call();
    spaced.flush();
    expect(runs).toBe(2);
    spaced.flush();
    expect(runs).toBe(2);
    spaced.call();
    spaced.cancel();
    vi.advanceTimersByTime(100);
    expect(runs).toBe(2);
  });
});
