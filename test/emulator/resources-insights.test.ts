import { afterEach, describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../../src/api/error-codes.js';
import { ERROR_EXPLANATIONS } from '../../src/emulator/error-explanations.js';
import { as, cleanup, emulator, frozen } from './platform-harness.js';
import { inbound, send, SEED_IDS, subscribe } from './resources-harness.js';

afterEach(cleanup);

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('analytics summary', () => {
  it('counts the emulator’s own traffic over the range and moves with new traffic', async () => {
    const e = await emulator({ seed: 8 });
    const before = (await as(e).get('/v1/analytics/summary')).body;
    expect(before.to).toBe(day(e.clock.now()));
    expect(before.conversations.total).toBeGreaterThan(0);
    expect(before.messages.received).toBeGreaterThan(0);
    // Seeded replies come 3-12 minutes after the customer.
    expect(before.response_time.median_seconds).toBeGreaterThanOrEqual(180);
    expect(before.response_time.median_seconds).toBeLessThanOrEqual(720);
    expect(before.conversion.leads).toBeGreaterThan(0);
    await inbound(e, { channel: 'phone', from: { handle: '+13035550900' }, content: 'hello?' }).expect(201);
    const reply = await send(e, '/v1/messages', {
      contact_id: SEED_IDS.delivered.contact,
      channel: 'phone',
      content: 'hi',
    });
    expect(reply.status).toBe(201);
    const after = (await as(e).get('/v1/analytics/summary')).body;
    expect(after.messages.received).toBe(before.messages.received + 1);
    expect(after.messages.sent).toBe(before.messages.sent + 1);
    expect(after.conversations.new).toBe(before.conversations.new + 1);
  });

  it('is computed again after any write to what it reads, and on a new day of the clock', async () => {
    const e = await emulator({ now: frozen });
    const summary = async () => (await as(e).get('/v1/analytics/summary')).body;
    const first = await summary();
    expect(await summary()).toEqual(first);
    const conversations = (await as(e).get('/v1/conversations?limit=100')).body.data as {
      id: string;
      status: string;
    }[];
    const open = conversations.find((c) => c.status !== 'closed')!;
    await as(e).patch(`/v1/conversations/${open.id}`).send({ status: 'closed' }).expect(200);
    const closed = await summary();
    expect(closed.conversations.closed).toBe(first.conversations.closed + 1);
    const leads = (await as(e).get('/v1/pipeline/leads?limit=100')).body.data as { id: string; stage: string }[];
    const lead = leads.find((l) => l.stage !== 'won')!;
    await as(e).patch(`/v1/pipeline/leads/${lead.id}/stage`).send({ stage: 'won' }).expect(200);
    expect((await summary()).conversion.won).toBe(closed.conversion.won + 1);
    e.clock.advance(24 * 3600);
    expect((await summary()).to).toBe(day(e.clock.now()));
  });

  it('is empty for a range without traffic, filters by channel, and refuses from > to', async () => {
    const e = await emulator();
    const empty = (await as(e).get('/v1/analytics/summary?from=2001-01-01&to=2001-01-31')).body;
    expect(empty).toMatchObject({
      conversations: { total: 0 },
      messages: { sent: 0, received: 0 },
      response_time: { median_seconds: null },
      conversion: { rate: null },
    });
    const photo = (await as(e).get('/v1/analytics/summary?channel=photo_social')).body;
    const all = (await as(e).get('/v1/analytics/summary')).body;
    expect(photo.messages.received).toBeGreaterThan(0);
    expect(photo.messages.received).toBeLessThan(all.messages.received);
    expect((await as(e).get('/v1/analytics/summary?from=2025-02-01&to=2025-01-01')).status).toBe(400);
    expect((await as(e).get('/v1/analytics/summary?channel=sms')).body.error.code).toBe('INVALID_PLATFORM');
  });
});

describe('usage', () => {
  it('reports plan, rate-limit headroom and counts what the emulator did', async () => {
    const e = await emulator({ plan: 'dev_hobby' });
    const first = (await as(e).get('/v1/usage')).body;
    expect(first).toMatchObject({ plan: 'dev_hobby', rate_limit: { limit: 120, remaining: 119 }, requests: 1 });
    await send(e, `/v1/conversations/${SEED_IDS.delivered.conversation}/messages`, { content: 'one' }).expect(201);
    const second = (await as(e).get('/v1/usage')).body;
    expect(second.requests).toBe(3);
    expect(second.rate_limit.remaining).toBe(117);
    expect(second.usage.messages).toBe(first.usage.messages + 1);
    expect(second.usage.api_calls).toBeGreaterThanOrEqual(3);
    expect(second.usage.ai_replies).toBeGreaterThan(0);
  });
});

describe('developer', () => {
  it('answers the calling key’s scopes and features, and the plan’s limits', async () => {
    const e = await emulator({ plan: 'free' });
    const caps = (await as(e).get('/v1/developer/capabilities')).body;
    expect(caps.plan).toBe('free');
    expect(caps.features).toMatchObject({ analytics: true, free_text_messages: false, tickets: false });
    const limits = (await as(e).get('/v1/developer/limits')).body;
    expect(limits).toMatchObject({ plan: 'free', rate_limit_per_minute: 30, window_seconds: 60, read_only: true });
  });

  it('narrows features to a scoped key', async () => {
    const e = await emulator();
    const created = await as(e)
      .post('/v1/keys')
      .send({ label: 'sender', scopes: ['messages:send'], kind: 'live' });
    expect(created.status).toBe(201);
    const caps = (await as(e, created.body.key).get('/v1/developer/capabilities')).body;
    expect(caps.key).toEqual({ id: created.body.id, kind: 'live', scopes: ['messages:send'] });
    expect(caps.features).toMatchObject({ free_text_messages: true, tickets: false, webhooks: false });
    expect((await as(e, created.body.key).get('/v1/developer/limits')).body.rate_limit_per_minute).toBe(600);
  });

  it('ticks onboarding steps off as they really happen', async () => {
    const e = await emulator();
    const done = async () =>
      Object.fromEntries(
        ((await as(e).get('/v1/developer/onboarding')).body.steps as { id: string; done: boolean }[]).map((s) => [
          s.id,
          s.done,
        ]),
      );
    expect(await done()).toEqual({
      connect_channel: true,
      create_api_key: false,
      register_webhook: false,
      receive_delivery: false,
      send_message: false,
      update_ticket: false,
    });
    await as(e)
      .post('/v1/keys')
      .send({ label: 'backend', scopes: ['tickets:write'], kind: 'live' })
      .expect(201);
    await send(e, `/v1/conversations/${SEED_IDS.delivered.conversation}/messages`, { content: 'hi' }).expect(201);
    const ticket = (await as(e).get('/v1/tickets?limit=1')).body.data[0];
    await as(e).patch(`/v1/tickets/${ticket.id}`).send({ assignee: 'agent_onboarding' }).expect(200);
    const now = await done();
    expect(now).toMatchObject({
      create_api_key: true,
      send_message: true,
      update_ticket: true,
      register_webhook: false,
    });
    const hooks = await subscribe(e);
    await inbound(e, { channel: 'phone', from: { handle: '+13035550901' }, content: 'hi' }).expect(201);
    expect(await hooks.events()).not.toEqual([]);
    const body = (await as(e).get('/v1/developer/onboarding')).body;
    expect(body.completed).toBe(6);
    expect(body.total).toBe(6);
  });

  it('explains every code of its table, matches platform codes case-insensitively, and 404s an unknown code', async () => {
    const e = await emulator();
    for (const code of [
      '131049',
      '131026',
      '131047',
      '130429',
      '132000',
      '131051',
      '131000',
      '131008',
      '131009',
      '131021',
      '131031',
      '132001',
      '132012',
      '133010',
      '470',
    ]) {
      expect(Object.hasOwn(ERROR_EXPLANATIONS, code)).toBe(true);
    }
    for (const code of Object.keys(ERROR_EXPLANATIONS)) {
      const res = await as(e).get(`/v1/developer/troubleshooting/errors/${code}`);
      expect(res.status).toBe(200);
      expect(res.body.code).toBe(code);
      expect(['provider', 'platform']).toContain(res.body.fault);
    }
    expect((await as(e).get('/v1/developer/troubleshooting/errors/131049')).body).toMatchObject({
      fault: 'provider',
      retryable: false,
    });
    expect((await as(e).get('/v1/developer/troubleshooting/errors/130429')).body.retryable).toBe(true);
    expect((await as(e).get('/v1/developer/troubleshooting/errors/outside_service_window')).body.code).toBe(
      'OUTSIDE_SERVICE_WINDOW',
    );
    // Every code the service itself answers with (docs/errors.md) is a platform code the route explains.
    for (const code of Object.keys(ERROR_STATUS)) {
      const res = await as(e).get(`/v1/developer/troubleshooting/errors/${code}`);
      expect([code, res.status, res.body.code]).toEqual([code, 200, code]);
    }
    const unknown = await as(e).get('/v1/developer/troubleshooting/errors/999999');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
  });
});
