import { afterEach, describe, expect, it } from 'vitest';
import { WebhookEndpointCreated } from '../../src/api/schemas/webhook-endpoint.js';
import { Plan, READ_ONLY_PLANS } from '../../src/api/plans.js';
import { PLAN_QUOTAS } from '../../src/emulator/domain/usage/plan-quotas.js';
import { MAX_WEBHOOK_ENDPOINTS } from '../../src/emulator/handlers/webhooks.js';
import { verify } from '../../src/signature/index.js';
import { EVENT_NAMES, SUBSCRIBABLE } from '../../src/events/index.js';
import { as, cleanup, emulator, receiver } from './platform-harness.js';

afterEach(cleanup);

type E = Awaited<ReturnType<typeof emulator>>;

async function register(e: E, url: string, events: string[] = ['*']) {
  const res = await as(e).post('/v1/webhooks').send({ url, events, description: 'test receiver' });
  expect(res.status).toBe(201);
  return WebhookEndpointCreated.parse(res.body);
}

describe('webhook endpoints', () => {
  it('shows the whsec_ secret once, never in lists, never in the database in readable form', async () => {
    const e = await emulator();
    const hooks = await receiver();
    const created = await register(e, hooks.url);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
    expect(created).toMatchObject({ url: hooks.url, events: ['*'], is_active: true, description: 'test receiver' });
    const list = await as(e).get('/v1/webhooks');
    expect(list.status).toBe(200);
    expect(list.body.data[0].id).toBe(created.id);
    expect(JSON.stringify(list.body)).not.toContain(created.secret);
    expect(list.body.data[0]).not.toHaveProperty('secret');
    expect(list.body.data[0]).not.toHaveProperty('sealed_secret');
    const rows = e.db.prepare('SELECT data FROM docs').all() as { data: string }[];
    expect(rows.some((r) => r.data.includes(created.secret) || r.data.includes(created.secret.slice(6)))).toBe(false);
  });

  it.each([
    ['plain http to a public host', 'http://example.com/hooks'],
    ['https to a private address', 'https://10.0.0.8/hooks'],
    ['not a URL', 'hooks'],
  ])('refuses %s', async (_name, url) => {
    const e = await emulator();
    const res = await as(e)
      .post('/v1/webhooks')
      .send({ url, events: ['*'] });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.message).toMatch(/url/i);
  });

  it('accepts public https and loopback http URLs', async () => {
    const e = await emulator();
    await register(e, 'https://hooks.example.com/convo');
    await register(e, 'http://localhost:3000/hooks');
  });

  it.each([[['message.bogus.x']], [['*.created']], [[]], [['message.']]])(
    'refuses the subscription list %j',
    async (events) => {
      const e = await emulator();
      const res = await as(e).post('/v1/webhooks').send({ url: 'https://hooks.example.com/x', events });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    },
  );

  it('refuses an unknown event name with the list of known ones, and keeps * and family.* working', async () => {
    const e = await emulator();
    const res = await as(e)
      .post('/v1/webhooks')
      .send({ url: 'https://hooks.example.com/x', events: ['message.*', 'order.paid'] });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    const detail = res.body.error.details.find((d: { path: string }) => d.path === 'events.1');
    expect(detail.message).toContain('unknown event "order.paid"');
    for (const known of SUBSCRIBABLE) expect(detail.message).toContain(known);
    expect((await as(e).get('/v1/webhooks')).body.data).toEqual([]);
    const created = await register(e, 'https://hooks.example.com/x', ['*', 'ticket.*', ...EVENT_NAMES]);
    expect(created.events).toHaveLength(2 + EVENT_NAMES.length);
  });

  it('signs a test payload with the endpoint secret without showing it (sign-payload)', async () => {
    const e = await emulator();
    const created = await register(e, 'https://hooks.example.com/x');
    const res = await as(e)
      .post('/v1/webhooks/sign-payload')
      .send({ webhook_id: created.id, payload: { event: 'ticket.created', data: { id: 'tkt_1' } } });
    expect(res.status).toBe(200);
    expect(res.body.raw_body).toBe('{"event":"ticket.created","data":{"id":"tkt_1"}}');
    expect(JSON.stringify(res.body)).not.toContain(created.secret);
    await expect(
      verify({
        body: res.body.raw_body,
        signature: res.body.signature,
        timestamp: String(res.body.timestamp),
        secrets: created.secret,
      }),
    ).resolves.toBeDefined();
    const fixed = await as(e)
      .post('/v1/webhooks/sign-payload')
      .send({ webhook_id: created.id, payload: 'raw text', timestamp: 1763683200 });
    expect(fixed.body).toMatchObject({ timestamp: 1763683200, raw_body: 'raw text' });
    expect(
      (await as(e).post('/v1/webhooks/sign-payload').send({ webhook_id: 'wh_missing', payload: 'x' })).status,
    ).toBe(404);
  });

  it.each(Plan.options.filter((plan) => !READ_ONLY_PLANS.has(plan) && PLAN_QUOTAS[plan].webhooks !== null))(
    'registers on %s as many endpoints as GET /v1/developer/limits shows, then 422 naming the plan',
    async (plan) => {
      const e = await emulator({ plan });
      const quota = (await as(e).get('/v1/developer/limits').expect(200)).body.quotas.webhooks as number;
      expect(quota).toBeGreaterThan(0);
      const ids: string[] = [];
      for (let i = 0; i < quota; i++) ids.push((await register(e, `https://hooks.example.com/${i}`)).id);
      const over = await as(e)
        .post('/v1/webhooks')
        .send({ url: 'https://hooks.example.com/over', events: ['*'] });
      expect(over.status).toBe(422);
      expect(over.body.error).toMatchObject({
        code: 'INVALID_STATE',
        message: `The ${plan} plan allows ${quota} webhook endpoints and all are registered; delete one first (DELETE /v1/webhooks/:id)`,
        details: [{ quota, used: quota }],
      });
      expect((await as(e).get('/v1/webhooks?limit=100')).body.data).toHaveLength(quota);
      // Deleting one makes room for one.
      await as(e).delete(`/v1/webhooks/${ids[0]}`).expect(204);
      await register(e, 'https://hooks.example.com/again');
    },
  );

  it('caps even an unlimited plan at MAX_WEBHOOK_ENDPOINTS endpoints', async () => {
    const e = await emulator({ plan: 'enterprise' });
    expect(PLAN_QUOTAS.enterprise.webhooks).toBeNull();
    for (let i = 0; i < MAX_WEBHOOK_ENDPOINTS; i++) await register(e, `https://hooks.example.com/${i}`);
    const over = await as(e)
      .post('/v1/webhooks')
      .send({ url: 'https://hooks.example.com/over', events: ['*'] });
    expect(over.status).toBe(422);
    expect(over.body.error.message).toContain(String(MAX_WEBHOOK_ENDPOINTS));
  });

  it('deletes an endpoint (204); then it is gone and 404 everywhere', async () => {
    const e = await emulator();
    const created = await register(e, 'https://hooks.example.com/x');
    expect((await as(e).delete(`/v1/webhooks/${created.id}`)).status).toBe(204);
    expect((await as(e).get('/v1/webhooks')).body.data).toEqual([]);
    expect((await as(e).delete(`/v1/webhooks/${created.id}`)).status).toBe(404);
    expect((await as(e).get(`/v1/webhooks/${created.id}/deliveries`)).status).toBe(404);
  });
});
