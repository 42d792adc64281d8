import Database from 'better-sqlite3';
import express from 'express';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReceiver, type Receiver } from '../../src/receiver/index.js';
import { createSqliteStore } from '../../src/store/index.js';
import { signedDelivery } from '../../src/testing/index.js';
import { tempDir } from '../store/temp-dir.js';
import { capturingLogger, expressApp, post, SECRET, silent, testReceiver } from './harness.js';
import { expectEnvelopedRefusal, rawExchange, UNPARSABLE_REQUESTS } from '../support/raw-http.js';

let dir: ReturnType<typeof tempDir>;
let receiver: Receiver;
beforeEach(() => {
  dir = tempDir();
  receiver = testReceiver(dir.path('r.db'));
});
afterEach(async () => {
  await receiver.close();
  dir.remove();
});

/** A signed delivery sent over a real socket to a server listening here. */
const fetchDelivery = (port: number, delivery: ReturnType<typeof signedDelivery>, path = '/webhooks') =>
  fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', headers: delivery.headers, body: delivery.body });

describe('Express middleware', () => {
  it('mounted after express.json() answers 500 saying how to mount it, and stores nothing', async () => {
    const app = express().use(express.json()).post('/webhooks', receiver.middleware());
    const res = await post(app, signedDelivery({ secret: SECRET, event: 'ticket.created' })).expect(500);
    expect(res.body.error.code).toBe('BODY_ALREADY_PARSED');
    expect(res.body.error.message).toMatch(/before any body parser.*express\.raw/);
    expect((await receiver.store.list()).data).toEqual([]);
  });

  it('accepts the exact bytes left by express.raw()', async () => {
    const app = express()
      .use(express.raw({ type: 'application/json' }))
      .post('/webhooks', receiver.middleware());
    await post(app, signedDelivery({ secret: SECRET, event: 'ticket.created' })).expect(200);
    expect((await receiver.store.list()).data).toHaveLength(1);
  });

  it('refuses a body express.raw() read under a higher limit than maxBodyBytes (413)', async () => {
    const small = testReceiver(dir.path('small.db'), { maxBodyBytes: 100 });
    const app = express()
      .use(express.raw({ type: 'application/json', limit: '1mb' }))
      .post('/webhooks', small.middleware());
    const res = await post(app, signedDelivery({ secret: SECRET, event: 'ticket.created' })).expect(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect((await small.store.list()).data).toEqual([]);
    await small.close();
  });

  it('works mounted under a prefix with app.use', async () => {
    const app = express().use('/hooks/service', receiver.middleware());
    const delivery = signedDelivery({ secret: SECRET, event: 'ticket.created' });
    await request(app).post('/hooks/service').set(delivery.headers).send(delivery.body).expect(200);
  });

  it('answers 503 when the store cannot write (locked by another process), so the service retries', async () => {
    const store = createSqliteStore({ path: dir.path('locked.db'), busyTimeoutMs: 20 });
    const locked = createReceiver({ secret: SECRET, store, logger: silent });
    const other = new Database(dir.path('locked.db'));
    other.exec('BEGIN IMMEDIATE');
    const delivery = signedDelivery({ secret: SECRET, event: 'ticket.created' });
    const res = await post(expressApp(locked), delivery).expect(503);
    expect(res.body.error.code).toBe('STORE_UNAVAILABLE');
    other.exec('ROLLBACK');
    other.close();
    await post(expressApp(locked), delivery).expect(200);
    await locked.close();
    await store.close();
  });
});

describe('node:http listener', () => {
  let server: Server;
  let port: number;
  beforeEach(async () => {
    server = createServer(receiver.listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('accepts a signed delivery', async () => {
    const delivery = signedDelivery({ secret: SECRET, event: 'contact.opted_out' });
    const res = await fetchDelivery(port, delivery, '/anything');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ delivery_id: delivery.deliveryId, duplicate: false });
  });

  it('refuses a chunked body (no Content-Length) as soon as it passes the limit', async () => {
    const delivery = signedDelivery({ secret: SECRET, event: 'message.received' });
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        { port, method: 'POST', headers: { ...delivery.headers, 'transfer-encoding': 'chunked' } },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on('error', reject);
      // 2 MiB in chunks: more than the 1 MiB default limit.
      for (let i = 0; i < 32; i++) req.write('x'.repeat(64 * 1024));
      req.end();
    });
    expect(status).toBe(413);
    expect((await receiver.store.list()).data).toEqual([]);
  });
});

describe('receiver.createServer', () => {
  const servers: Server[] = [];
  afterEach(() => Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve)))));
  async function listening(server: Server): Promise<number> {
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }

  it("answers what Node cannot parse in the receiver's envelope, logs it, and still takes deliveries", async () => {
    const { logger, records } = capturingLogger();
    const logged = testReceiver(dir.path('logged.db'), { logger });
    const port = await listening(logged.createServer());
    for (const unparsable of UNPARSABLE_REQUESTS)
      expectEnvelopedRefusal(await rawExchange(port, unparsable[1]), unparsable);
    const refusals = records().filter((r) => String(r.msg).startsWith('rejected delivery'));
    expect(refusals.map((r) => [r.status, r.code])).toEqual(UNPARSABLE_REQUESTS.map((c) => [c[2], c[3]]));
    const delivery = signedDelivery({ secret: SECRET, event: 'ticket.created' });
    const res = await fetchDelivery(port, delivery);
    expect(res.status).toBe(200);
    expect((await logged.store.list()).data.map((d) => d.id)).toEqual([delivery.deliveryId]);
    await logged.close();
  });

  it('serves an Express app given to it, with the same envelope for what Node cannot parse', async () => {
    const port = await listening(receiver.createServer(expressApp(receiver)));
    expectEnvelopedRefusal(await rawExchange(port, UNPARSABLE_REQUESTS[0][1]), UNPARSABLE_REQUESTS[0]);
    const delivery = signedDelivery({ secret: SECRET, event: 'ticket.created' });
    const res = await fetchDelivery(port, delivery);
    expect(res.status).toBe(200);
  });

  it("differs from a server of Node's own, which answers a bare status", async () => {
    const port = await listening(createServer(receiver.listener));
    const answer = await rawExchange(port, UNPARSABLE_REQUESTS[0][1]);
    expect(answer.status).toBe(400);
    expect(answer.body).toBe('');
  });
});

describe('fetch-standard handler', () => {
  const requestFor = (delivery: { body: string; headers: Record<string, string> }, init: RequestInit = {}) =>
    new Request('http://localhost/webhooks', {
      method: 'POST',
      headers: delivery.headers,
      body: delivery.body,
      ...init,
    });

  it('accepts a signed delivery and dedupes its retry', async () => {
    const delivery = signedDelivery({ secret: SECRET, event: 'template.status_update' });
    expect((await receiver.fetch(requestFor(delivery))).status).toBe(200);
    expect(await (await receiver.fetch(requestFor(delivery))).json()).toMatchObject({ duplicate: true });
  });

  it('answers 401 with the error envelope for a bad signature, and 405 for a GET', async () => {
    const res = await receiver.fetch(requestFor(signedDelivery({ secret: 'whsec_other', event: 'ticket.closed' })));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      error: { code: 'SIGNATURE_MISMATCH', message: expect.stringMatching(/raw request bytes/) },
    });
    expect((await receiver.fetch(new Request('http://localhost/webhooks'))).status).toBe(405);
  });

  it('answers 413 for a whole body over the limit that declares no length', async () => {
    const small = testReceiver(dir.path('small.db'), { maxBodyBytes: 100 });
    const request = requestFor(signedDelivery({ secret: SECRET, event: 'ticket.closed' }));
    expect(request.headers.get('content-length')).toBeNull();
    expect((await small.fetch(request)).status).toBe(413);
    expect((await small.store.list()).data).toEqual([]);
    await small.close();
  });

  it('answers 413 for a streamed body over the limit', async () => {
    const small = testReceiver(dir.path('small.db'), { maxBodyBytes: 100 });
    const delivery = signedDelivery({ secret: SECRET, event: 'ticket.closed' });
    const stream = new ReadableStream({
      start: (c) => (c.enqueue(new TextEncoder().encode(delivery.body)), c.close()),
    });
    const res = await small.fetch(requestFor(delivery, { body: stream, duplex: 'half' } as RequestInit));
    expect(res.status).toBe(413);
    await small.close();
  });
});

describe('the core', () => {
  it('takes any label of UTF-8 as the charset and refuses every other (415)', async () => {
    const answers = [];
    for (const charset of ['UTF-8', 'utf8', 'unicode-1-1-utf-8', 'utf-16', 'iso-8859-1', 'no-such-charset']) {
      const delivery = signedDelivery({ secret: SECRET, event: 'ticket.created' });
      const headers = { ...delivery.headers, 'content-type': `application/json; charset=${charset}` };
      answers.push((await receiver.handle({ headers, rawBody: delivery.body })).status);
    }
    expect(answers).toEqual([200, 200, 200, 415, 415, 415]);
  });

  it('answers 503 when the secret provider fails, so the service retries, and stores nothing', async () => {
    const failing = createReceiver({
      secrets: async () => Promise.reject(new Error('vault down')),
      dbPath: dir.path('vault.db'),
      logger: silent,
    });
    const delivery = signedDelivery({ secret: SECRET, event: 'ticket.created' });
    const res = await failing.handle({ headers: delivery.headers, rawBody: delivery.body });
    expect(res).toMatchObject({ status: 503, body: { error: { code: 'SECRETS_UNAVAILABLE' } } });
    expect((await failing.store.list()).data).toEqual([]);
    await failing.close();
  });

  it('refuses a body handed in whole over maxBodyBytes (413), whatever Content-Length says, and stores nothing', async () => {
    const small = testReceiver(dir.path('small.db'), { maxBodyBytes: 1000 });
    const big = signedDelivery({
      secret: SECRET,
      event: 'ticket.created',
      overrides: { data: { note: 'é'.repeat(400) } },
    });
    // 400 two-byte characters: under the limit as a string's length, over it as the bytes that are signed.
    expect(big.body.length).toBeLessThan(1000);
    for (const rawBody of [big.body, new TextEncoder().encode(big.body)]) {
      const res = await small.handle({ headers: { ...big.headers, 'content-length': '10' }, rawBody });
      expect(res).toMatchObject({ status: 413, body: { error: { code: 'PAYLOAD_TOO_LARGE' } } });
    }
    // The headers are still checked first, as the adapters do.
    const unsigned = await small.handle({ headers: { ...big.headers, 'x-service-signature': '' }, rawBody: big.body });
    expect(unsigned.body).toMatchObject({ error: { code: 'SIGNATURE_MISSING' } });
    const fits = signedDelivery({ secret: SECRET, event: 'ticket.created' });
    expect((await small.handle({ headers: fits.headers, rawBody: fits.body })).status).toBe(200);
    expect((await small.store.list()).data.map((row) => row.id)).toEqual([fits.deliveryId]);
    await small.close();
  });

  it('routes by the signed body when X-Service-Event disagrees, and says so in the log', async () => {
    const log = capturingLogger();
    const routed = testReceiver(dir.path('mismatch.db'), { logger: log.logger });
    const delivery = signedDelivery({ secret: SECRET, event: 'ticket.created' });
    const res = await routed.handle({
      headers: { ...delivery.headers, 'x-service-event': 'ticket.closed' },
      rawBody: delivery.body,
    });
    expect(res.status).toBe(200);
    expect((await routed.store.get(delivery.deliveryId))?.event).toBe('ticket.created');
    expect(log.records().some((r) => r.headerEvent === 'ticket.closed')).toBe(true);
    await routed.close();
  });
});

describe('logs', () => {
  it('say why a request was rejected and never contain the secret or a signature', async () => {
    const log = capturingLogger();
    const logged = testReceiver(dir.path('log.db'), { logger: log.logger });
    logged.on('*', ({ log: handlerLog }) =>
      handlerLog.info({ signature: 'sha256=leak', secret: SECRET }, 'handler ran'),
    );
    await logged.start();
    const app = expressApp(logged);
    const good = signedDelivery({ secret: SECRET, event: 'ticket.created' });
    await post(app, good).expect(200);
    await post(app, signedDelivery({ secret: 'whsec_wrong_secret', event: 'ticket.created' })).expect(401);
    await logged.idle();
    await logged.close();
    const text = log.text();
    expect(text).toContain('SIGNATURE_MISMATCH');
    expect(text).toContain('handler ran');
    for (const secretThing of [
      SECRET,
      'whsec_wrong_secret',
      good.headers['x-service-signature'].slice(7),
      'sha256=leak',
    ]) {
      expect(text).not.toContain(secretThing);
    }
  });
});

describe('onResponse', () => {
  it('hears every answer of every adapter and of handle, refusals before the body included, with the headers', async () => {
    const heard: string[] = [];
    const hearing = testReceiver(dir.path('heard.db'), {
      onResponse: (response, headers) => {
        const code = 'error' in response.body ? response.body.error.code : `duplicate=${response.body.duplicate}`;
        const id = headers instanceof Headers ? headers.get('x-service-delivery') : headers['x-service-delivery'];
        heard.push(`${response.status} ${code} ${String(id)}`);
      },
    });
    const delivery = signedDelivery({ secret: SECRET, event: 'ticket.created', deliveryId: 'dlv_heard' });
    const server = createServer(hearing.listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    await fetch(url, { method: 'POST', headers: delivery.headers, body: delivery.body });
    await fetch(url, {
      method: 'POST',
      headers: { ...delivery.headers, 'x-service-signature': 'sha256=zz' },
      body: 'x',
    });
    await request(express().post('/webhooks', hearing.middleware()))
      .post('/webhooks')
      .set(delivery.headers)
      .send(delivery.body);
    await hearing.fetch(new Request(url, { method: 'GET', headers: { 'x-service-delivery': 'dlv_get' } }));
    await hearing.handle({ headers: delivery.headers, rawBody: delivery.body });
    server.close();
    await hearing.close();
    expect(heard).toEqual([
      '200 duplicate=false dlv_heard',
      '401 SIGNATURE_MALFORMED dlv_heard',
      '200 duplicate=true dlv_heard',
      '405 METHOD_NOT_ALLOWED dlv_get',
      '200 duplicate=true dlv_heard',
    ]);
  });

  it('that throws is logged, and every adapter still answers', async () => {
    const { logger, records } = capturingLogger();
    const throwing = testReceiver(dir.path('throws.db'), {
      logger,
      onResponse: () => {
        throw new Error('metrics down');
      },
    });
    const server = createServer(throwing.listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const delivery = signedDelivery({ secret: SECRET, event: 'ticket.created' });
    const viaNode = await fetch(url, { method: 'POST', headers: delivery.headers, body: delivery.body });
    const viaFetch = await throwing.fetch(new Request(url, { method: 'GET' }));
    const viaHandle = await throwing.handle({ headers: delivery.headers, rawBody: delivery.body });
    expect([viaNode.status, viaFetch.status, viaHandle.status]).toEqual([200, 405, 200]);
    expect(records().filter((r) => /onResponse threw/.test(String(r.msg)))).toHaveLength(3);
    server.close();
    await throwing.close();
  });

  it('that is not a function is refused at construction, naming the option', () => {
    expect(() => testReceiver(dir.path('bad.db'), { onResponse: 'log' as never })).toThrow(/`onResponse`/);
  });
});
