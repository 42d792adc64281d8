import { describe, expect, it } from 'vitest';
import { TurnBatch } from '../../src/store/postgres/turn-batch.js';

/** A batch runner whose commits we finish by hand, so the test sees which calls share a batch. */
function heldRuns() {
  const batches: number[][] = [];
  const releases: (() => void)[] = [];
  const run = (inputs: number[]) => {
    batches.push(inputs);
    return new Promise<number[]>((resolve) => releases.push(() => resolve(inputs.map((n) => n * 10))));
  };
  return { run, batches, release: (i: number) => releases[i]!() };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('TurnBatch', () => {
  it('runs the calls of one turn as one batch and answers each only after its batch', async () => {
    const held = heldRuns();
    const batch = new TurnBatch(held.run, { maxBatch: 100, maxInFlight: 1 });
    const answers: number[] = [];
    const calls = [1, 2, 3].map((n) => batch.add(n).then((a) => answers.push(a)));
    await turn();
    expect(held.batches).toEqual([[1, 2, 3]]);
    expect(answers).toEqual([]);
    held.release(0);
    await Promise.all(calls);
    expect(answers).toEqual([10, 20, 30]);
  });

  it('gathers the calls made while a batch commits into the next one, with at most maxInFlight running', async () => {
    const held = heldRuns();
    const batch = new TurnBatch(held.run, { maxBatch: 100, maxInFlight: 1 });
    const first = batch.add(1);
    await turn();
    const later = [2, 3, 4].map((n) => batch.add(n));
    await turn();
    await turn();
    expect(held.batches).toEqual([[1]]);
    held.release(0);
    await first;
    await turn();
    expect(held.batches).toEqual([[1], [2, 3, 4]]);
    held.release(1);
    await expect(Promise.all(later)).resolves.toEqual([20, 30, 40]);
  });

  it('splits a flood into batches of maxBatch, and settled() waits for every one', async () => {
    const held = heldRuns();
    const batch = new TurnBatch(held.run, { maxBatch: 2, maxInFlight: 2 });
    const calls = [1, 2, 3, 4, 5].map((n) => batch.add(n));
    await turn();
    expect(held.batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
    let settled = false;
    const whenSettled = batch.settled().then(() => (settled = true));
    held.release(0);
    await calls[0];
    await turn();
    expect(held.batches.at(-1)).toEqual([5]);
    held.release(1);
    held.release(2);
    await whenSettled;
    expect(settled).toBe(true);
    await expect(Promise.all(calls)).resolves.toEqual([10, 20, 30, 40, 50]);
  });

  it('rejects the calls of a failed batch only', async () => {
    let n = 0;
    const batch = new TurnBatch<number, number>(
      async (inputs) => {
        if (n++ === 0) throw new Error('connection lost');
        return inputs;
      },
      { maxBatch: 100, maxInFlight: 1 },
    );
    const failed = batch.add(1);
    await expect(failed).rejects.toThrow('connection lost');
    await expect(batch.add(2)).resolves.toBe(2);
  });
});
