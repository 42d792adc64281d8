import express from 'express';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Receiver } from '../../src/receiver/index.js';
import { signedDelivery, signedHeaders } from '../../src/testing/index.js';
import { tempDir } from '../store/temp-dir.js';
import { capturingLogger, expressApp, post, SECRET, testReceiver } from './harness.js';

let dir: ReturnType<typeof tempDir>;
let receiver: Receiver;
let app: express.Express;
let runs: string[];
let log: ReturnType<typeof capturingLogger>;

beforeEach(async () => {
  dir = tempDir();
  log = capturingLogger();
  runs = [];
  receiver = testReceiver(dir.path('r.db'), { logger: log.logger, maxBodyBytes: 4096 });
  receiver.on('*', ({ deliveryId }) => void runs.push(deliveryId));
  await receiver.start();
  app = expressApp(receiver);
});
afterEach(async () => {
  await receiver.close();
  dir.remove();
});

const rows = async () => (await receiver.store.list()).data;

describe('a valid delivery', () => {
  it('is stored, acked with 200 and handled', async () => {
    const delivery = signedDelivery({ secret: SECRET, event: 'ticket.created' });
    const res = await post(app, delivery).expect(200);
    expect(res.body).toEqual({ received: true, delivery_id: delivery.deliveryId, duplicate: false });
    await receiver.idle();
    expect(runs).toEqual([delivery.deliveryId]);
    const row = await receiver.store.get(delivery.deliveryId);
    expect(row).toMatchObject({
      status: 'done',
      event: 'ticket.created',
      signature: delivery.headers['x-service-signature'],
    });
    expect(Buffer.from(row!.body).toString()).toBe(delivery.body);
  });

  it('sent again, is acked as a duplicate and handled once', async () => {
    const delivery = signedDelivery({ secret: SECRET, event: 'message.received' });
    await post(app, delivery).expect(200);
    const again = await post(app, delivery).expect(200);
    expect(again.body).toMatchObject({ duplicate: true });
    await receiver.idle();
    expect(runs).toEqual([delivery.deliveryId]);
    expect(await rows()).toHaveLength(1);
  });

  it('resent with its exact bytes and signature under new delivery ids, is a duplicate of the first (one row, one run)', async () => {
    const eventIds: (string | null)[] = [];
    receiver.on('ticket.created', ({ eventId }) => void eventIds.push(eventId));
    const delivery = signedDelivery({ secret: SECRET, event: 'ticket.created' });
    await post(app, delivery).expect(200);
    for (const replayId of ['dlv_replay_1', 'dlv_replay_2', 'dlv_replay_3']) {
      const res = await post(app, delivery, { 'x-service-delivery': replayId }).expect(200);
      expect(res.body).toEqual({ received: true, delivery_id: replayId, duplicate: true });
    }
    await receiver.idle();
    expect(runs).toEqual([delivery.deliveryId]);
    expect(eventIds).toEqual([(delivery.envelope as { id: string }).id]);
    expect((await rows()).map((r) => r.id)).toEqual([delivery.deliveryId]);
    // At debug level each intake is logged, a replay naming the delivery it duplicates.
    const intakes = log.records().filter((r) => r.msg === 'stored delivery' || r.msg === 'duplicate delivery');
    expect(intakes.map((r) => [r.deliveryId, r.duplicate, r.duplicateOf])).toEqual([
      [delivery.deliveryId, false, undefined],
      ['dlv_replay_1', true, delivery.deliveryId],
      ['dlv_replay_2', true, delivery.deliveryId],
      ['dlv_replay_3', true, delivery.deliveryId],
    ]);
  });

  it('starting with a UTF-8 byte order mark, is acked and then handled (one decoding at intake and dispatch)', async () => {
    const envelope = JSON.stringify({ id: 'evt_bom', event: 'shipment.left', data: { id: 'shp_1' } });
    const delivery = signedDelivery({ secret: SECRET, envelope: `\uFEFF${envelope}` });
    await post(app, delivery).expect(200);
    await receiver.idle();
    expect(runs).toEqual([delivery.deliveryId]);
    expect((await receiver.store.get(delivery.deliveryId))?.status).toBe('done');
  });

  it('whose event is a pattern (`message.*`, `*`), is refused and reaches no handler', async () => {
    const typed: string[] = [];
    receiver.on('message.*', ({ event }) => void typed.push(event));
    for (const event of ['message.*', '*']) {
      const delivery = signedDelivery({ secret: SECRET, envelope: { id: `evt_${event}`, event, data: {} } });
      const res = await post(app, delivery).expect(400);
      expect(res.body.error).toMatchObject({ code: 'INVALID_ENVELOPE', message: expect.stringMatching(/pattern/) });
    }
    await receiver.idle();
    expect(typed).toEqual([]);
    expect(await rows()).toHaveLength(0);
  });

  it('signed with the older of two secrets during a rotation is accepted', async () => {
    const rotating = testReceiver(dir.path('rot.db'), {
      secret: undefined,
      secrets: ['whsec_new_one', SECRET],
      logger: log.logger,
    });
    await post(expressApp(rotating), signedDelivery({ secret: SECRET, event: 'contact.updated' })).expect(200);
    await rotating.close();
    expect(log.records().some((r) => r.secretIndex === 1)).toBe(true);
  });
});

describe('a rejected request writes no row and calls no handler', () => {
  const valid = () => signedDelivery({ secret: SECRET, event: 'message.received' });
  const now = Math.floor(Date.now() / 1000);
  const cases: [string, () => PromiseLike<{ status: number; body: unknown }>, number, string][] = [
    [
      'a tampered body',
      () => {
        const d = valid();
        return post(app, { ...d, body: d.body.replace('blue', 'red') });
      },
      401,
      'SIGNATURE_MISMATCH',
    ],
    [
      'the wrong secret',
      () => post(app, signedDelivery({ secret: 'whsec_wrong', event: 'message.received' })),
      401,
      'SIGNATURE_MISMATCH',
    ],
    [
      'a stale timestamp',
      () => post(app, signedDelivery({ secret: SECRET, event: 'message.received', timestamp: now - 301 })),
      401,
      'TIMESTAMP_OUT_OF_TOLERANCE',
    ],
    [
      'a future timestamp',
      () => post(app, signedDelivery({ secret: SECRET, event: 'message.received', timestamp: now + 400 })),
      401,
      'TIMESTAMP_OUT_OF_TOLERANCE',
    ],
    ['no signature header', () => post(app, valid(), { 'x-service-signature': undefined }), 401, 'SIGNATURE_MISSING'],
    ['no timestamp header', () => post(app, valid(), { 'x-service-timestamp': undefined }), 401, 'TIMESTAMP_MISSING'],
    [
      'a 12 KB signature header',
      () => post(app, valid(), { 'x-service-signature': 'sha256=' + 'a'.repeat(12 * 1024) }),
      401,
      'SIGNATURE_MALFORMED',
    ],
    [
      'a unicode timestamp',
      () => post(app, valid(), { 'x-service-timestamp': encodeURIComponent('١٧٦٣٦٨٣٢٠٠') }),
      401,
      'TIMESTAMP_MALFORMED',
    ],
    ['no delivery id', () => post(app, valid(), { 'x-service-delivery': undefined }), 400, 'DELIVERY_ID_MISSING'],
    [
      'a hostile delivery id',
      () => post(app, valid(), { 'x-service-delivery': 'dlv_../../etc;drop' }),
      400,
      'DELIVERY_ID_MALFORMED',
    ],
    [
      'malformed JSON',
      () => post(app, signedDelivery({ secret: SECRET, envelope: '{"event": "message.received",' })),
      400,
      'MALFORMED_JSON',
    ],
    // Through the core: the HTTP client would re-encode these bytes.
    [
      'invalid UTF-8',
      () => {
        const rawBody = Buffer.from([0x7b, 0xff, 0x7d]);
        return receiver.handle({ headers: signedHeaders({ secret: SECRET, body: rawBody }), rawBody });
      },
      400,
      'MALFORMED_JSON',
    ],
    ['a JSON array', () => post(app, signedDelivery({ secret: SECRET, envelope: '[1,2]' })), 400, 'INVALID_ENVELOPE'],
    [
      'an envelope without event',
      () => post(app, signedDelivery({ secret: SECRET, envelope: { data: {} } })),
      400,
      'INVALID_ENVELOPE',
    ],
    [
      'an envelope whose data is not an object',
      () => post(app, signedDelivery({ secret: SECRET, envelope: { event: 'ticket.created', data: 'x' } })),
      400,
      'INVALID_ENVELOPE',
    ],
    [
      'a body over the limit',
      () =>
        post(
          app,
          signedDelivery({
            secret: SECRET,
            event: 'message.received',
            overrides: { data: { content: 'x'.repeat(5000) } },
          }),
        ),
      413,
      'PAYLOAD_TOO_LARGE',
    ],
    ['a text/plain body', () => post(app, valid(), { 'content-type': 'text/plain' }), 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['no content type', () => post(app, valid(), { 'content-type': undefined }), 415, 'UNSUPPORTED_MEDIA_TYPE'],
  ];

  it.each(cases)('%s', async (_name, send, status, code) => {
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ error: { code, message: expect.any(String) } });
    await receiver.idle();
    expect(await rows()).toEqual([]);
    expect(runs).toEqual([]);
    expect(log.records().some((r) => r.code === code && String(r.msg).startsWith('rejected delivery'))).toBe(true);
  });

  it('malformed JSON is answered and logged without quoting the body (it may hold a secret)', async () => {
    // V8 quotes a short input whole, a long one by its first 10 characters.
    const body = 'pw=sk_live_42'; // form-encoded by mistake
    const res = await post(app, signedDelivery({ secret: SECRET, envelope: body })).expect(400);
    expect(res.body.error.message).toMatch(/^Body is not valid UTF-8 JSON: Unexpected token/);
    expect(JSON.stringify(res.body)).not.toContain('sk_live');
    expect(log.text()).not.toContain('sk_live');
  });

  it('a GET is 405 with Allow: POST', async () => {
    const app2 = express().use('/webhooks', receiver.middleware());
    const res = await request(app2).get('/webhooks').expect(405);
    expect(res.headers.allow).toBe('POST');
  });
});
