import { describe, expect, it } from 'vitest';
import { parseRetryAfterSeconds } from '../../src/client/retry-after.js';
import { backoffDelayMs, failedBeforeSending } from '../../src/client/retry-policy.js';

const settings = { backoffBaseMs: 500, backoffMaxMs: 8_000, maxRetryAfterMs: 60_000 };

describe('backoff with full jitter', () => {
  it('draws below a ceiling that doubles per retry and stops at the cap', () => {
    const top = () => 0.999_999;
    expect([0, 1, 2, 3, 4, 5, 10].map((retry) => backoffDelayMs(retry, settings, top))).toEqual([
      499, 999, 1999, 3999, 7999, 7999, 7999,
    ]);
    expect(backoffDelayMs(3, settings, () => 0)).toBe(0);
    expect(backoffDelayMs(1, settings, () => 0.5)).toBe(500);
  });
});

describe('Retry-After', () => {
  it('reads whole seconds and HTTP dates (as whole seconds from now, never negative), and nothing else', () => {
    const now = Date.parse('2026-11-21T00:00:00.250Z');
    expect(parseRetryAfterSeconds(' 7 ', now)).toBe(7);
    expect(parseRetryAfterSeconds('Sat, 21 Nov 2026 00:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfterSeconds('Saturday, 21-Nov-26 00:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfterSeconds('Sat Nov 21 00:00:30 2026', now)).toBe(30);
    expect(parseRetryAfterSeconds('Fri, 20 Nov 2026 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfterSeconds('9'.repeat(400), now)).toBe(2 ** 31);
    for (const garbage of ['1.5', '-3', '', 'soon', 'abc 2020', 'Mon 1', 'Sat, 31 Nov 2026 00:00:30 GMT', null])
      expect(parseRetryAfterSeconds(garbage, now)).toBeNull();
  });
});

describe('failedBeforeSending', () => {
  const wrapped = (cause: unknown) => Object.assign(new TypeError('fetch failed'), { cause });
  const coded = (code: string) => Object.assign(new Error(code), { code });

  it('is true only when every error code proves the connection never carried the request', () => {
    expect(failedBeforeSending(wrapped(coded('ECONNREFUSED')))).toBe(true);
    expect(failedBeforeSending(wrapped(coded('ENOTFOUND')))).toBe(true);
    expect(failedBeforeSending(wrapped(new AggregateError([coded('ECONNREFUSED'), coded('EHOSTUNREACH')])))).toBe(true);
  });

  it('is false for resets, closed sockets, mixed causes and errors without a code', () => {
    expect(failedBeforeSending(wrapped(coded('ECONNRESET')))).toBe(false);
    expect(failedBeforeSending(wrapped(coded('UND_ERR_SOCKET')))).toBe(false);
    expect(failedBeforeSending(wrapped(new AggregateError([coded('ECONNREFUSED'), coded('ECONNRESET')])))).toBe(false);
    expect(failedBeforeSending(new TypeError('fetch failed'))).toBe(false);
    expect(failedBeforeSending('a string')).toBe(false);
  });
});
