import { afterEach, describe, expect, it } from 'vitest';
import { allEndpoints } from '../../src/api/all-endpoints.js';
import { PLAN_RATE_LIMITS, READ_ONLY_PLANS } from '../../src/api/plans.js';
import { as, cleanup, frozen, concretePath, emulator } from './platform-harness.js';

afterEach(cleanup);

describe('read-only plans', () => {
  const writes = allEndpoints().filter((e) => e.def.auth !== false && (e.def.write ?? e.def.method !== 'GET'));

  it.each([...READ_ONLY_PLANS])(
    'refuses every write route on %s with 403 PLAN_READ_ONLY, and still serves reads',
    async (plan) => {
      const e = await emulator({ plan });
      for (const [i, entry] of writes.entries()) {
        // Free and creator allow 30 requests a minute: move to the next window before running out.
        if (i % 25 === 24) e.clock.advance(60);
        const method = entry.def.method.toLowerCase() as 'post' | 'put' | 'patch' | 'delete';
        const res = await as(e)[method](concretePath(entry.def.path)).send({});
        expect(res.status, entry.id).toBe(403);
        expect(res.body.error.code, entry.id).toBe('PLAN_READ_ONLY');
      }
      expect((await as(e).get('/v1/tickets')).status).toBe(200);
    },
  );

  it('lets a read-only plan use sign-payload, which changes nothing', async () => {
    const e = await emulator({ plan: 'free' });
    const res = await as(e).post('/v1/webhooks/sign-payload').send({ webhook_id: 'wh_missing', payload: 'x' });
    expect(res.status).toBe(404);
  });

  it('lets a paid plan write', async () => {
    const e = await emulator({ plan: 'starter' });
    expect(
      (
        await as(e)
          .post('/v1/keys')
          .send({ label: 'x', scopes: ['tickets:read'], kind: 'live' })
      ).status,
    ).toBe(201);
  });
});

describe('rate limits', () => {
  it('counts per key in a fixed 60 s window with headers on every authenticated answer, then 429 with Retry-After', async () => {
    // A frozen real clock: the fixed minute window cannot roll over while the test fills it.
    const e = await emulator({ plan: 'free', now: frozen });
    const limit = PLAN_RATE_LIMITS.free;
    for (let i = 1; i <= limit; i++) {
      const res = await as(e).get(i % 2 ? '/v1/tickets' : '/v1/tickets/tkt_missing');
      expect(res.headers['x-ratelimit-limit']).toBe(String(limit));
      expect(res.headers['x-ratelimit-remaining']).toBe(String(limit - i));
    }
    const refused = await as(e).get('/v1/tickets');
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const reset = Number(refused.headers['x-ratelimit-reset']);
    expect(reset * 1000).toBeGreaterThan(e.clock.now());
    expect(reset * 1000 - e.clock.now()).toBeLessThanOrEqual(60_000);

    // Another key has its own window.
    const other = await as(e).post('/v1/keys');
    expect(other.status).toBe(429);
    expect((await as(e, e.testKey).get('/v1/tickets')).headers['x-ratelimit-remaining']).toBe(String(limit - 1));

    e.clock.advance(retryAfter);
    const again = await as(e).get('/v1/tickets');
    expect(again.status).toBe(200);
    expect(again.headers['x-ratelimit-remaining']).toBe(String(limit - 1));
  });

  it('uses the plan tier for the limit', async () => {
    const e = await emulator({ plan: 'enterprise' });
    expect((await as(e).get('/v1/tickets')).headers['x-ratelimit-limit']).toBe(String(PLAN_RATE_LIMITS.enterprise));
  });

  it('puts the headers on authenticated failures too, and none on 401 or /v1/status', async () => {
    const e = await emulator();
    const forbidden = await as(e, e.testKey).get('/v1/tickets');
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers['x-ratelimit-limit']).toBe(String(PLAN_RATE_LIMITS.dev_pro));
    const status = await as(e).get('/v1/status');
    expect(status.headers['x-ratelimit-limit']).toBeUndefined();
  });
});
