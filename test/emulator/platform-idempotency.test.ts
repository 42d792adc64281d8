import { afterEach, describe, expect, it } from 'vitest';
import { handlers } from '../../src/emulator/handlers/index.js';
import type { RouteHandlerTable } from '../../src/emulator/route-handler.js';
import { SEED_IDS } from '../../src/emulator/seed.js';
import { as, cleanup, frozen, emulator } from './platform-harness.js';

afterEach(cleanup);

const SEND = `/v1/conversations/${SEED_IDS.delivered.conversation}/messages`;

async function messageCount(e: Awaited<ReturnType<typeof emulator>>): Promise<number> {
  return (await as(e).get(`/v1/conversations/${SEED_IDS.delivered.conversation}/messages?limit=100`)).body.data.length;
}

describe('Idempotency-Key on the send routes', () => {
  it('replays the stored status and body with Idempotent-Replayed: true, sending once', async () => {
    const e = await emulator();
    const before = await messageCount(e);
    const first = await as(e).post(SEND).set('Idempotency-Key', 'order-1').send({ content: 'Your order shipped' });
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await as(e).post(SEND).set('Idempotency-Key', 'order-1').send({ content: 'Your order shipped' });
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(await messageCount(e)).toBe(before + 1);
  });

  it('compares bodies as canonical JSON: key order does not matter, content does (409 IDEMPOTENCY_KEY_REUSED)', async () => {
    const e = await emulator();
    const body = { content: 'Hi', buttons: ['Yes', 'No'] };
    expect((await as(e).post(SEND).set('Idempotency-Key', 'k1').send(body)).status).toBe(201);
    const reordered = await as(e)
      .post(SEND)
      .set('Idempotency-Key', 'k1')
      .set('Content-Type', 'application/json')
      .send('{"buttons":["Yes","No"],"content":"Hi"}');
    expect(reordered.headers['idempotent-replayed']).toBe('true');
    const different = await as(e)
      .post(SEND)
      .set('Idempotency-Key', 'k1')
      .send({ content: 'Hi!', buttons: ['Yes', 'No'] });
    expect(different.status).toBe(409);
    expect(different.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('keeps keys per API key, method and path', async () => {
    const e = await emulator();
    const created = await as(e)
      .post('/v1/keys')
      .send({ label: 'second', scopes: ['messages:send', 'messages:read'], kind: 'live' });
    expect((await as(e).post(SEND).set('Idempotency-Key', 'shared').send({ content: 'one' })).status).toBe(201);
    const otherKey = await as(e, created.body.key).post(SEND).set('Idempotency-Key', 'shared').send({ content: 'two' });
    expect(otherKey.status).toBe(201);
    expect(otherKey.headers['idempotent-replayed']).toBeUndefined();
    const otherPath = await as(e)
      .post('/v1/messages')
      .set('Idempotency-Key', 'shared')
      .send({ content: 'three', conversation_id: SEED_IDS.delivered.conversation });
    expect(otherPath.status).toBe(201);
    expect(otherPath.headers['idempotent-replayed']).toBeUndefined();
  });

  it('treats /api/v1 and /v1 as the same path', async () => {
    const e = await emulator();
    await as(e).post(SEND).set('Idempotency-Key', 'alias').send({ content: 'x' });
    expect(
      (await as(e).post(`/api${SEND}`).set('Idempotency-Key', 'alias').send({ content: 'x' })).headers[
        'idempotent-replayed'
      ],
    ).toBe('true');
  });

  it('treats every spelling Express routes to the same handler as the same path: one send per key', async () => {
    const e = await emulator();
    const before = await messageCount(e);
    const first = await as(e).post(SEND).set('Idempotency-Key', 'spelled').send({ content: 'once' });
    expect(first.status).toBe(201);
    const encoded = SEND.replace(/_/g, '%5F');
    for (const path of [`${SEND}/`, SEND.replace('/v1/', '/V1/'), SEND.replace('/messages', '/Messages'), encoded]) {
      const again = await as(e).post(path).set('Idempotency-Key', 'spelled').send({ content: 'once' });
      expect([path, again.status, again.headers['idempotent-replayed'], again.body.id]).toEqual([
        path,
        201,
        'true',
        first.body.id,
      ]);
    }
    expect(await messageCount(e)).toBe(before + 1);
  });

  it('keeps a 4xx result too (the provider rejected it): the same retry gets the same answer', async () => {
    const e = await emulator();
    const path = `/v1/conversations/${SEED_IDS.sendFailed.conversation}/messages`;
    const first = await as(e).post(path).set('Idempotency-Key', 'fail-1').send({ content: 'x' });
    expect(first.status).toBe(422);
    const again = await as(e).post(path).set('Idempotency-Key', 'fail-1').send({ content: 'x' });
    expect(again.status).toBe(422);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('replays a stored error byte for byte, its request_id included; only X-Request-ID is the replay’s own', async () => {
    const e = await emulator();
    const path = `/v1/conversations/${SEED_IDS.sendFailed.conversation}/messages`;
    const send = (requestId: string) =>
      as(e).post(path).set('Idempotency-Key', 'fail-2').set('X-Request-ID', requestId).send({ content: 'x' });
    const first = await send('first-try');
    expect(first.status).toBe(422);
    expect(first.body.error.request_id).toBe('first-try');
    const again = await send('second-try');
    expect(again.status).toBe(422);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['x-request-id']).toBe('second-try');
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.text).toBe(first.text);
  });

  it('keeps a 400 validation error: the same body replays it byte for byte, another body is 409', async () => {
    const e = await emulator();
    const before = await messageCount(e);
    const send = (body: object) => as(e).post(SEND).set('Idempotency-Key', 'bad-body').send(body);
    const first = await send({ content: 42 });
    expect(first.status).toBe(400);
    expect(first.body.error.code).toBe('VALIDATION_FAILED');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await send({ content: 42 });
    expect(again.status).toBe(400);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.text).toBe(first.text);
    const fixed = await send({ content: 'now valid' });
    expect(fixed.status).toBe(409);
    expect(fixed.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await messageCount(e)).toBe(before);
  });

  it('keeps a 404 for an unknown conversation: another body under the key is 409', async () => {
    const e = await emulator();
    const path = '/v1/conversations/cnv_unknown/messages';
    const first = await as(e).post(path).set('Idempotency-Key', 'bad-id').send({ content: 'x' });
    expect(first.status).toBe(404);
    const again = await as(e).post(path).set('Idempotency-Key', 'bad-id').send({ content: 'y' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it.each([
    ['415, a body that is not JSON', (r: ReturnType<ReturnType<typeof as>['post']>) => r.type('text/plain').send('hi')],
    [
      '400, malformed JSON',
      (r: ReturnType<ReturnType<typeof as>['post']>) => r.type('application/json').send('{"content":'),
    ],
  ])('keeps nothing for a body refused before the key is claimed (%s): the key then runs for real', async (_n, bad) => {
    const e = await emulator();
    const refused = await bad(as(e).post(SEND).set('Idempotency-Key', 'unread'));
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.headers['idempotent-replayed']).toBeUndefined();
    const real = await as(e).post(SEND).set('Idempotency-Key', 'unread').send({ content: 'x' });
    expect(real.status).toBe(201);
    expect(real.headers['idempotent-replayed']).toBeUndefined();
  });

  it('replays a stored success byte for byte', async () => {
    const e = await emulator();
    const send = () => as(e).post(SEND).set('Idempotency-Key', 'bytes-1').send({ content: 'Exactly these bytes' });
    const first = await send();
    const again = await send();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.text).toBe(first.text);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['longer than 200 characters', 'k'.repeat(201)],
  ])('answers 400 IDEMPOTENCY_KEY_REQUIRED when the key is %s', async (_name, key) => {
    const e = await emulator();
    const req = as(e).post('/v1/messages');
    const res = await (key === undefined ? req : req.set('Idempotency-Key', key)).send({
      content: 'x',
      conversation_id: SEED_IDS.delivered.conversation,
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
  });

  it('forgets a key after 24 hours by the emulator clock', async () => {
    const e = await emulator();
    await as(e).post(SEND).set('Idempotency-Key', 'day').send({ content: 'a' });
    e.clock.advance(24 * 3600 + 1);
    // A remembered key would answer 409 for this different body; a forgotten one runs the send again
    // (which the closed 24-hour service window now refuses on its own terms).
    const later = await as(e).post(SEND).set('Idempotency-Key', 'day').send({ content: 'b' });
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(later.body.error?.code).not.toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('answers 409 IDEMPOTENCY_KEY_IN_USE while the first request is still in flight', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    // The real handler, held open so the second request arrives while the first runs.
    const slow: RouteHandlerTable = {
      ...handlers,
      conversations: {
        ...handlers.conversations,
        sendMessage: async (req, ctx) => {
          entered();
          await held;
          return handlers.conversations.sendMessage(req, ctx);
        },
      },
    };
    const e = await emulator({ handlers: slow });
    const first = as(e)
      .post(SEND)
      .set('Idempotency-Key', 'busy')
      .send({ content: 'x' })
      .then((r) => r);
    await inside;
    const second = await as(e).post(SEND).set('Idempotency-Key', 'busy').send({ content: 'x' });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    release();
    expect((await first).status).toBe(201);
    expect(
      (await as(e).post(SEND).set('Idempotency-Key', 'busy').send({ content: 'x' })).headers['idempotent-replayed'],
    ).toBe('true');
  });

  it('does not keep a 5xx result: the same key may retry it', async () => {
    let failures = 1;
    const flaky: RouteHandlerTable = {
      ...handlers,
      conversations: {
        ...handlers.conversations,
        sendMessage: (req, ctx) => {
          if (failures-- > 0) throw new Error('simulated crash inside the handler');
          return handlers.conversations.sendMessage(req, ctx);
        },
      },
    };
    const e = await emulator({ handlers: flaky });
    const crashed = await as(e).post(SEND).set('Idempotency-Key', 'retry-me').send({ content: 'x' });
    expect(crashed.status).toBe(500);
    expect(crashed.body.error.code).toBe('INTERNAL_ERROR');
    expect(crashed.body.error.message).not.toContain('simulated');
    const retried = await as(e).post(SEND).set('Idempotency-Key', 'retry-me').send({ content: 'x' });
    expect(retried.status).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
  });

  it('does not keep a 429: after the window the same key runs for real', async () => {
    // A frozen real clock: the fixed minute window cannot roll over while the test fills it.
    const e = await emulator({ plan: 'dev_hobby', now: frozen });
    for (let i = 0; i < 120; i++) await as(e).get('/v1/tickets?limit=1');
    const limited = await as(e).post(SEND).set('Idempotency-Key', 'rl').send({ content: 'x' });
    expect(limited.status).toBe(429);
    e.clock.advance(60);
    const later = await as(e).post(SEND).set('Idempotency-Key', 'rl').send({ content: 'x' });
    expect(later.status).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
  });
});
