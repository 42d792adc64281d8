import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebhookEndpointCreated } from '../../src/api/schemas/webhook-endpoint.js';
import { Envelope, eventSchemas, isEventName } from '../../src/events/index.js';
import { SEED_IDS } from '../../src/emulator/seed.js';
import { DeliveryQueue } from '../../src/emulator/dispatch/delivery-queue.js';
import { SlotShare } from '../../src/emulator/dispatch/slot-share.js';
import { openEmulatorDatabase } from '../../src/emulator/state/database.js';
import { USER_AGENT } from '../../src/emulator/dispatch/post-delivery.js';
import { verify } from '../../src/signature/index.js';
import { as, cleanup, emulator, frozen, receiver, tempDir, type Received } from './platform-harness.js';

afterEach(cleanup);

type E = Awaited<ReturnType<typeof emulator>>;

async function register(e: E, url: string, events: string[] = ['*']) {
  const res = await as(e).post('/v1/webhooks').send({ url, events });
  expect(res.status).toBe(201);
  return WebhookEndpointCreated.parse(res.body);
}

/** A customer writes in: conversation.created (new handle) and message.received. */
async function inbound(e: E, handle = '+14155558888') {
  const res = await as(e)
    .post('/_emulator/inbound')
    .send({ channel: 'phone', from: { handle, name: 'Casey' }, content: 'Hi there' });
  expect(res.status).toBe(201);
}

async function attempts(e: E, endpointId: string) {
  const res = await as(e).get(`/v1/webhooks/${endpointId}/deliveries?limit=50`);
  expect(res.status).toBe(200);
  return res.body.data as {
    delivery_id: string;
    attempt: number;
    status_code: number | null;
    delivered_at: string | null;
    next_retry_at: string | null;
    error: string | null;
  }[];
}

const eventsOf = (received: Received[]) => received.map((r) => r.headers['x-service-event']);

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('signed deliveries', () => {
  it('posts each event to each subscribed endpoint with the four headers, verifiable with the secret', async () => {
    const e = await emulator();
    const hooks = await receiver();
    const endpoint = await register(e, hooks.url);
    await inbound(e);
    await e.dispatcher.idle();
    expect(eventsOf(hooks.received)).toEqual(expect.arrayContaining(['conversation.created', 'message.received']));
    for (const delivery of hooks.received) {
      const { headers, body } = delivery;
      expect(headers['content-type']).toBe('application/json');
      expect(headers['user-agent']).toBe(USER_AGENT);
      expect(headers['user-agent']).toMatch(/^convo-kit-emulator\/\d+\.\d+\.\d+/);
      expect(headers['x-service-delivery']).toMatch(/^dlv_[A-Za-z0-9_-]{24}$/);
      await expect(
        verify({
          body,
          signature: String(headers['x-service-signature']),
          timestamp: String(headers['x-service-timestamp']),
          secrets: endpoint.secret,
        }),
      ).resolves.toBeDefined();
      const envelope = Envelope.parse(JSON.parse(body));
      expect(envelope.id).toMatch(/^evt_/);
      expect(envelope.event).toBe(headers['x-service-event']);
      expect(isEventName(envelope.event)).toBe(true);
      if (isEventName(envelope.event)) expect(eventSchemas[envelope.event].safeParse(envelope.data).success).toBe(true);
    }
    const log = await attempts(e, endpoint.id);
    expect(log).toHaveLength(hooks.received.length);
    expect(
      log.every((a) => a.status_code === 200 && a.attempt === 1 && a.delivered_at !== null && a.next_retry_at === null),
    ).toBe(true);
  });

  it('sends only what an endpoint subscribed to (exact, namespace, *)', async () => {
    const e = await emulator();
    const [tickets, messages] = [await receiver(), await receiver()];
    await register(e, tickets.url, ['ticket.*']);
    await register(e, messages.url, ['message.received']);
    await inbound(e);
    expect(
      (await as(e).post('/_emulator/handoff').send({ conversation_id: SEED_IDS.delivered.conversation })).status,
    ).toBeLessThan(300);
    await e.dispatcher.idle();
    expect(eventsOf(tickets.received)).toEqual(['ticket.created']);
    expect(eventsOf(messages.received)).toEqual(['message.received']);
  });

  it('stops sending to a deleted endpoint', async () => {
    const e = await emulator();
    const hooks = await receiver();
    const endpoint = await register(e, hooks.url);
    expect((await as(e).delete(`/v1/webhooks/${endpoint.id}`)).status).toBe(204);
    await inbound(e);
    await e.dispatcher.idle();
    expect(hooks.received).toHaveLength(0);
  });
});

describe('retries', () => {
  it('retries a 500 at the configured delay on the emulator clock, with the same delivery id', async () => {
    // Frozen real time: only the advances below move the emulator clock, however slow the machine.
    const e = await emulator({ now: frozen });
    const hooks = await receiver((n) => (n === 1 ? 500 : 200));
    const endpoint = await register(e, hooks.url, ['message.received']);
    await inbound(e);
    await e.dispatcher.idle();
    expect(hooks.received).toHaveLength(1);
    const [failed] = await attempts(e, endpoint.id);
    expect(failed).toMatchObject({ attempt: 1, status_code: 500, delivered_at: null });
    expect(Date.parse(failed!.next_retry_at!) - e.clock.now()).toBeGreaterThan(50_000);

    e.clock.advance(59);
    await e.dispatcher.idle();
    expect(hooks.received).toHaveLength(1);
    e.clock.advance(1);
    await e.dispatcher.idle();
    expect(hooks.received).toHaveLength(2);
    expect(hooks.received[1]!.headers['x-service-delivery']).toBe(hooks.received[0]!.headers['x-service-delivery']);
    expect(hooks.received[1]!.body).toBe(hooks.received[0]!.body);
    const log = await attempts(e, endpoint.id);
    expect(log.map((a) => [a.attempt, a.status_code])).toEqual([
      [2, 200],
      [1, 500],
    ]);
  });

  it('gives up after the last configured delay', async () => {
    const e = await emulator({ retryDelaysSeconds: [5, 10] });
    const hooks = await receiver(() => 503);
    const endpoint = await register(e, hooks.url, ['message.received']);
    await inbound(e);
    await e.dispatcher.idle();
    for (const seconds of [5, 10, 3600]) {
      e.clock.advance(seconds);
      await e.dispatcher.idle();
    }
    expect(hooks.received).toHaveLength(3);
    const log = await attempts(e, endpoint.id);
    expect(log[0]).toMatchObject({ attempt: 3, status_code: 503, next_retry_at: null });
  });

  it('records a refused connection as an attempt without a status, and the API answers as usual', async () => {
    const e = await emulator();
    const endpoint = await register(e, `http://127.0.0.1:${await closedPort()}/down`, ['message.received']);
    await inbound(e);
    expect((await as(e).get('/v1/conversations?limit=1')).status).toBe(200);
    await e.dispatcher.idle();
    const [attempt] = await attempts(e, endpoint.id);
    expect(attempt).toMatchObject({ attempt: 1, status_code: null, delivered_at: null });
    expect(attempt!.error).toMatch(/ECONNREFUSED/);
    expect(attempt!.next_retry_at).not.toBeNull();
  });

  it('answers the API while a receiver hangs', async () => {
    const e = await emulator();
    const slow = await receiver(() => 'hang');
    await register(e, slow.url, ['message.received']);
    await inbound(e);
    await until(() => slow.received.length === 1);
    // The delivery is in flight at a receiver that never answers; the API does not wait for it.
    const res = await as(e)
      .post('/_emulator/inbound')
      .send({ channel: 'phone', from: { handle: '+14155558889' }, content: 'Still there?' });
    expect(res.status).toBe(201);
    expect((await as(e).get('/v1/messages?limit=1')).status).toBe(200);
  });

  it('keeps posting to healthy endpoints while a hanging one holds its share of the slots', async () => {
    const e = await emulator();
    const hanging = await receiver(() => 'hang');
    const healthy = await receiver();
    await register(e, hanging.url, ['message.received']);
    await register(e, healthy.url, ['message.received']);
    for (let i = 0; i < 12; i++) await inbound(e, `+1415555${String(6000 + i)}`);
    await until(() => healthy.received.length === 12);
    // At most two POSTs at a time go to one endpoint; the rest of its deliveries wait their turn.
    expect(hanging.received.length).toBeLessThanOrEqual(2);
  });

  it('keeps the last 50 attempts per endpoint, paginated', async () => {
    const e = await emulator();
    const failing = await receiver(() => 500);
    const endpoint = await register(e, failing.url, ['message.received']);
    for (let i = 0; i < 30; i++) await inbound(e, `+1415555${String(7000 + i)}`);
    await e.dispatcher.idle();
    e.clock.advance(60);
    await e.dispatcher.idle();
    expect(failing.received).toHaveLength(60);
    const first = await as(e).get(`/v1/webhooks/${endpoint.id}/deliveries?limit=30`);
    const second = await as(e).get(
      `/v1/webhooks/${endpoint.id}/deliveries?limit=30&cursor=${first.body.pagination.next_cursor}`,
    );
    expect(first.body.data).toHaveLength(30);
    expect(second.body.data).toHaveLength(20);
    expect(second.body.pagination).toEqual({ has_more: false, next_cursor: null });
    expect(first.body.data[0].attempt).toBe(2);
    expect((await as(e).get(`/v1/webhooks/${endpoint.id}/deliveries?cursor=bogus`)).status).toBe(400);
  });

  it('lets a finished delivery go once its last attempt leaves the 50-attempt log: it can no longer be resent', async () => {
    const e = await emulator();
    const hooks = await receiver();
    await register(e, hooks.url, ['message.received']);
    for (let i = 0; i < 52; i++) await inbound(e, `+1415555${String(7100 + i)}`);
    await e.dispatcher.idle();
    const ids = hooks.received.map((r) => String(r.headers['x-service-delivery']));
    expect(new Set(ids).size).toBe(52);
    // Delivered concurrently (two at a time), so the log's order is not quite the arrival order: the first
    // arrivals and the last are far enough from the 50-attempt edge.
    for (const id of ids.slice(0, 2)) {
      const gone = await as(e).post(`/_emulator/webhooks/deliveries/${id}/resend`);
      expect(gone.status).toBe(404);
      expect(gone.body.error.code).toBe('NOT_FOUND');
    }
    expect((await as(e).post(`/_emulator/webhooks/deliveries/${ids.at(-1)!}/resend`)).status).toBe(200);
  });
});

/** Polls a condition the test cannot await directly (a request arriving at a receiver). */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  expect(condition()).toBe(true);
}

describe('restarts', () => {
  it('resumes pending deliveries from a file database', async () => {
    const dbPath = join(tempDir(), 'emulator.db');
    const hooks = await receiver((n) => (n === 1 ? 500 : 200));
    const first = await emulator({ dbPath });
    const endpoint = await register(first, hooks.url, ['message.received']);
    await inbound(first);
    await first.dispatcher.idle();
    expect(hooks.received).toHaveLength(1);
    await first.close();

    const second = await emulator({ dbPath, adminKey: first.adminKey });
    second.clock.advance(60);
    await second.dispatcher.idle();
    expect(hooks.received).toHaveLength(2);
    expect(hooks.received[1]!.headers['x-service-delivery']).toBe(hooks.received[0]!.headers['x-service-delivery']);
    expect((await attempts(second, endpoint.id)).map((a) => a.attempt)).toEqual([2, 1]);
  });

  it('sends after a restart what was queued but never attempted', async () => {
    const dbPath = join(tempDir(), 'emulator.db');
    const hooks = await receiver();
    const first = await emulator({ dbPath });
    await register(first, hooks.url, ['message.received']);
    await inbound(first);
    // Closed before the background loop's first turn: the delivery is only in the database.
    await first.close();
    expect(hooks.received).toHaveLength(0);
    const second = await emulator({ dbPath });
    await second.dispatcher.idle();
    expect(eventsOf(hooks.received)).toEqual(['message.received']);
  });
});

describe('claim order', () => {
  it('takes deliveries due in the same millisecond in the order their events happened, per endpoint', () => {
    const db = openEmulatorDatabase(join(tempDir(), 'emulator.db'));
    const queue = new DeliveryQueue(db);
    // Random ids, as the emulator makes them: ordering by id would shuffle these.
    const ids = Array.from({ length: 40 }, (_, i) => `dlv_${randomBytes(9).toString('base64url')}_${i}`);
    const rows = ids.map((id, i) => ({
      id,
      endpoint_id: i % 2 ? 'whk_b' : 'whk_a',
      event: 'ticket.updated',
      body: '{}',
    }));
    queue.enqueue(rows, 1_000);
    const slots = new SlotShare({ concurrency: 40, perEndpoint: 40, onSlotFreed: () => {} });
    const taken = queue.claim(1_000, slots.round(new Set(['whk_a', 'whk_b']))).map((d) => d.id);
    db.close();
    for (const endpoint of ['whk_a', 'whk_b']) {
      const expected = rows.filter((r) => r.endpoint_id === endpoint).map((r) => r.id);
      expect(taken.filter((id) => expected.includes(id))).toEqual(expected);
    }
  });
});
