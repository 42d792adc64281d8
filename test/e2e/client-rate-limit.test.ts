import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAN_RATE_LIMITS } from '../../src/api/index.js';
import { PermissionError, RateLimitError } from '../../src/client/index.js';
import { rejection, startE2e, type E2e } from './harness.js';

// The free plan: read-only, 30 requests per key per minute.
let t: E2e;
beforeAll(async () => {
  t = await startE2e({ plan: 'free', seed: 2 });
});
afterAll(async () => {
  await t.close();
});

describe('a low-limit plan through the client', () => {
  it('refuses writes with PermissionError PLAN_READ_ONLY', async () => {
    const contact = (await t.client.contacts.list({ limit: 1 })).data[0];
    if (!contact) throw new Error('the seeded workspace has no contact');
    const error = await rejection(t.client.contacts.update({ id: contact.id, name: 'Not allowed' }));
    expect(error).toBeInstanceOf(PermissionError);
    expect(error).toMatchObject({ status: 403, code: 'PLAN_READ_ONLY' });
  });

  it('throws RateLimitError with retryAfter once the window is used up, and serves again in the next window', async () => {
    // maxRetries 0: the client would otherwise wait Retry-After and try again.
    const client = t.clientFor(t.emulator.adminKey, { maxRetries: 0 });
    const limit = PLAN_RATE_LIMITS.free;
    // The window is fixed to the clock's minute: a walk that crosses a boundary starts a fresh window, so allow two.
    let lastRemaining: number | undefined;
    let error: unknown;
    for (let calls = 0; calls <= 2 * limit && error === undefined; calls++) {
      const answer = await client.contacts
        .list({ limit: 1 })
        .withResponse()
        .catch((e: unknown) => {
          error = e;
        });
      if (!answer) continue;
      expect(answer.response.rateLimit?.limit).toBe(limit);
      lastRemaining = answer.response.rateLimit?.remaining;
    }
    expect(lastRemaining).toBe(0);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    const { retryAfter } = error as RateLimitError;
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // The emulator's clock moves past the window: the key is served again.
    await t.control('clock', { advance_seconds: 61 });
    expect((await client.contacts.list({ limit: 1 }).withResponse()).response.rateLimit?.remaining).toBe(limit - 1);
  });
});
