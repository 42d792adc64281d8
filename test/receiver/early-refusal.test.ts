import express from 'express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Receiver } from '../../src/receiver/index.js';
import { signedDelivery } from '../../src/testing/index.js';
import { tempDir } from '../store/temp-dir.js';
import { uploadAfterAnswer } from '../support/raw-http.js';
import { SECRET, sleep, testReceiver } from './harness.js';
import { heldPost, type Answer } from './held-post.js';

// Issue 13 F2: what the headers decide is answered before the body is read, and the body bytes held
// across requests are bounded. Bodies here are declared but held back by the client: an answer that
// arrives while the body is still unsent was given without reading it.

const MiB = 1024 * 1024;

/** A signed delivery whose body is about `size` bytes. */
function largeDelivery(size: number) {
  return signedDelivery({
    secret: SECRET,
    event: 'message.received',
    overrides: { data: { content: 'x'.repeat(size - 600) } },
  });
}

const adapters = {
  'node:http': (receiver: Receiver) => createServer(receiver.listener),
  Express: (receiver: Receiver) => createServer(express().post('/webhooks', receiver.middleware())),
};

describe.each(Object.entries(adapters))('on %s', (_name, serve) => {
  let dir: ReturnType<typeof tempDir>;
  let receiver: Receiver;
  let server: Server;
  let url: string;

  async function start(options: Parameters<typeof testReceiver>[1] = {}) {
    receiver = testReceiver(dir.path('r.db'), options);
    server = serve(receiver);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  }

  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await receiver.close();
    dir.remove();
  });

  it('300 parallel 1 MiB bodies without a signature are all answered 401 while their bodies are still unsent', async () => {
    await start({ maxInFlightBytes: 2 * MiB });
    const { headers } = signedDelivery({ secret: SECRET, event: 'message.received' });
    const body = Buffer.alloc(MiB, 'x');
    const requests = Array.from({ length: 300 }, () =>
      heldPost(url, { ...headers, 'x-service-signature': '' }, body, 64 * 1024),
    );
    const answers = await Promise.all(requests.map((r) => r.answer));
    expect(answers.map((a) => `${a.status} ${a.body.error?.code}`)).toEqual(Array(300).fill('401 SIGNATURE_MISSING'));
    // The connection closes after the answer: nobody waits for an upload that is never read.
    expect(answers.every((a) => a.headers.connection === 'close')).toBe(true);
    expect((await receiver.store.list()).data).toEqual([]);
  }, 60_000);

  it('every refused upload gets its answer, and a sender still sending its body after it is never reset', async () => {
    await start();
    const { headers } = signedDelivery({ secret: SECRET, event: 'message.received' });
    const head = (changes: Record<string, string>) =>
      `POST /webhooks HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries({ ...headers, ...changes })
        .filter(([name]) => name !== 'content-length')
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('')}`;
    const uploads = [
      ...Array.from({ length: 30 }, () => [head({ 'x-service-signature': '' }), MiB] as const),
      [head({ 'content-type': 'text/plain' }), MiB] as const,
      [head({}), MiB + 1] as const, // declared over maxBodyBytes (1 MiB)
    ];
    const endings = await Promise.all(
      uploads.map(([h, size]) => uploadAfterAnswer(Number(new URL(url).port), h, Buffer.alloc(size, 'x'), 16 * 1024)),
    );
    const count = (pick: (e: (typeof endings)[number]) => string) =>
      endings.reduce<Record<string, number>>((n, e) => ({ ...n, [pick(e)]: (n[pick(e)] ?? 0) + 1 }), {});
    expect(count((e) => String(e.status))).toEqual({ 401: 30, 415: 1, 413: 1 });
    expect(count((e) => (e.reset ? 'reset' : 'closed in order'))).toEqual({ 'closed in order': 32 });
    expect((await receiver.store.list()).data).toEqual([]);
  }, 60_000);

  it('reads a refused body no further than maxBodyBytes past its answer: a longer one is cut off', async () => {
    await start({ maxBodyBytes: 64 * 1024 });
    const { headers } = signedDelivery({ secret: SECRET, event: 'message.received' });
    const head = `POST /webhooks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Service-Timestamp: ${headers['x-service-timestamp']}\r\n`;
    const port = Number(new URL(url).port);
    const within = await uploadAfterAnswer(port, head, Buffer.alloc(64 * 1024, 'x'), 1024);
    expect(within).toEqual({ status: 401, reset: false });
    const endless = await uploadAfterAnswer(port, head, Buffer.alloc(8 * MiB, 'x'), 1024);
    expect(endless).toEqual({ status: 401, reset: true });
  });

  const refusals: [string, (h: Record<string, string>) => Record<string, string>, number, string, number?][] = [
    ['a malformed signature', (h) => ({ ...h, 'x-service-signature': 'sha256=zz' }), 401, 'SIGNATURE_MALFORMED'],
    ['no timestamp', (h) => ({ ...h, 'x-service-timestamp': '' }), 401, 'TIMESTAMP_MISSING'],
    [
      'a stale timestamp',
      (h) => ({ ...h, 'x-service-timestamp': String(Math.floor(Date.now() / 1000) - 301) }),
      401,
      'TIMESTAMP_OUT_OF_TOLERANCE',
    ],
    ['no delivery id', (h) => ({ ...h, 'x-service-delivery': '' }), 400, 'DELIVERY_ID_MISSING'],
    ['a text/plain body', (h) => ({ ...h, 'content-type': 'text/plain' }), 415, 'UNSUPPORTED_MEDIA_TYPE'],
    [
      'a JSON body declared UTF-16',
      (h) => ({ ...h, 'content-type': 'application/json; charset=utf-16' }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    ['a declared length over maxBodyBytes', (h) => h, 413, 'PAYLOAD_TOO_LARGE', 2 * MiB],
  ];

  it.each(refusals)('%s is answered before the body is read', async (_what, headersFor, status, code, size) => {
    await start();
    const delivery = largeDelivery(4096);
    const body = size ? Buffer.alloc(size, 'x') : Buffer.from(delivery.body);
    const held = heldPost(url, headersFor(delivery.headers), body, 0);
    const answer = await held.answer;
    expect([answer.status, answer.body.error?.code]).toEqual([status, code]);
    expect((await receiver.store.list()).data).toEqual([]);
  });

  it('past maxInFlightBytes, signed bodies get 503 with Retry-After before being read; the bound frees as bodies are handled', async () => {
    await start({ maxBodyBytes: 64 * 1024, maxInFlightBytes: 4 * 64 * 1024 });
    const deliveries = Array.from({ length: 8 }, () => largeDelivery(60 * 1024));
    const requests = deliveries.map((d) => heldPost(url, d.headers, Buffer.from(d.body), 1024));
    // Four fit in the bound and wait for the rest of their bodies; the other four are answered at once.
    const settled = requests.map((r) => r.answer.then((a) => a));
    const early: Answer[] = [];
    settled.forEach((p) => void p.then((a) => early.push(a)));
    while (early.length < 4) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(early.map((a) => `${a.status} ${a.body.error?.code} ${a.headers['retry-after']}`)).toEqual(
      Array(4).fill('503 BODIES_IN_FLIGHT 1'),
    );
    requests.forEach((r) => r.finish());
    const answers = await Promise.all(settled);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(4);
    expect((await receiver.store.list()).data).toHaveLength(4);
    // Every byte was given back: a full bound's worth is accepted again.
    const again = deliveries.slice(0, 4).map((d) => heldPost(url, d.headers, Buffer.from(d.body), 1024));
    again.forEach((r) => r.finish());
    expect((await Promise.all(again.map((r) => r.answer))).map((a) => a.status)).toEqual([200, 200, 200, 200]);
  });

  it('a body still unsent after bodyTimeoutMs gets 408 and gives its share of the bound back', async () => {
    await start({ maxBodyBytes: 64 * 1024, maxInFlightBytes: 2 * 64 * 1024, bodyTimeoutMs: 300 });
    // Two clients declare a full-size body and never send it (slowloris): together they fill the bound.
    const stalled = [largeDelivery(60 * 1024), largeDelivery(60 * 1024)].map((d) =>
      heldPost(url, d.headers, Buffer.from(d.body), 1024),
    );
    const answers = await Promise.all(stalled.map((r) => r.answer));
    expect(answers.map((a) => `${a.status} ${a.body.error?.code} ${a.headers.connection}`)).toEqual(
      Array(2).fill('408 BODY_TIMEOUT close'),
    );
    const genuine = largeDelivery(60 * 1024);
    const res = await fetch(url, { method: 'POST', headers: genuine.headers, body: genuine.body });
    expect(res.status).toBe(200);
    expect((await receiver.store.list()).data).toHaveLength(1);
  });

  it('a chunked body (no Content-Length) that runs past the bound gets 503 with Retry-After', async () => {
    await start({ maxBodyBytes: 64 * 1024, maxInFlightBytes: 64 * 1024 });
    const first = largeDelivery(60 * 1024);
    const holding = heldPost(url, first.headers, Buffer.from(first.body), 1024);
    const second = largeDelivery(8 * 1024);
    const res = await fetch(url, {
      method: 'POST',
      headers: second.headers,
      body: new Blob([second.body]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect([res.status, res.headers.get('retry-after')]).toEqual([503, '1']);
    holding.finish();
    expect((await holding.answer).status).toBe(200);
  });
});

it('maxInFlightBytes below maxBodyBytes is refused at construction, naming the option', () => {
  const dir = tempDir();
  expect(() => testReceiver(dir.path('r.db'), { maxBodyBytes: 1000, maxInFlightBytes: 999 })).toThrow(
    /maxInFlightBytes.*from 1000/,
  );
  dir.remove();
});

describe('the fetch handler', () => {
  const endless = () => new ReadableStream<Uint8Array>({ start: () => undefined });
  const init = (headers: Record<string, string>, body: ReadableStream<Uint8Array>) =>
    ({ method: 'POST', headers, body, duplex: 'half' }) as RequestInit;

  it('answers from the headers without reading a body that never ends', async () => {
    const dir = tempDir();
    const receiver = testReceiver(dir.path('r.db'));
    const { headers } = signedDelivery({ secret: SECRET, event: 'message.received' });
    const res = await receiver.fetch(
      new Request('http://x/webhooks', init({ ...headers, 'x-service-signature': '' }, endless())),
    );
    expect([res.status, ((await res.json()) as { error: { code: string } }).error.code]).toEqual([
      401,
      'SIGNATURE_MISSING',
    ]);
    await receiver.close();
    dir.remove();
  });

  it('answers 408 to a body that never ends once bodyTimeoutMs passes, and frees its bytes', async () => {
    const dir = tempDir();
    const receiver = testReceiver(dir.path('r.db'), {
      maxBodyBytes: 64 * 1024,
      maxInFlightBytes: 64 * 1024,
      bodyTimeoutMs: 200,
    });
    const first = largeDelivery(60 * 1024);
    const trickle = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(new TextEncoder().encode(first.body.slice(0, 40 * 1024))),
    });
    const res = await receiver.fetch(new Request('http://x/webhooks', init(first.headers, trickle)));
    expect([res.status, ((await res.json()) as { error: { code: string } }).error.code]).toEqual([408, 'BODY_TIMEOUT']);
    const second = largeDelivery(60 * 1024);
    const ok = await receiver.fetch(
      new Request('http://x/webhooks', { method: 'POST', headers: second.headers, body: second.body }),
    );
    expect(ok.status).toBe(200);
    await receiver.close();
    dir.remove();
  });

  it('answers 503 with Retry-After when a body runs past maxInFlightBytes', async () => {
    const dir = tempDir();
    const receiver = testReceiver(dir.path('r.db'), { maxBodyBytes: 64 * 1024, maxInFlightBytes: 64 * 1024 });
    const first = largeDelivery(60 * 1024);
    // The first body is read in part and then held open, keeping its bytes in the bound.
    let release!: () => void;
    const held = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(first.body.slice(0, 40 * 1024)));
        release = () => {
          controller.enqueue(new TextEncoder().encode(first.body.slice(40 * 1024)));
          controller.close();
        };
      },
    });
    const pending = receiver.fetch(new Request('http://x/webhooks', init(first.headers, held)));
    await sleep(100);
    const second = largeDelivery(30 * 1024);
    const res = await receiver.fetch(
      new Request('http://x/webhooks', { method: 'POST', headers: second.headers, body: second.body }),
    );
    expect([res.status, res.headers.get('retry-after')]).toEqual([503, '1']);
    release();
    expect((await pending).status).toBe(200);
    await receiver.close();
    dir.remove();
  });
});
