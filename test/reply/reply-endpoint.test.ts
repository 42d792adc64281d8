import express from 'express';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../../src/errors.js';
import {
  createReplyEndpoint,
  REPLY_HISTORY_MAX,
  type CustomReplyRequest,
  type ReplyContext,
  type ReplyEndpoint,
  type ReplyEndpointOptions,
} from '../../src/reply/index.js';
import { sampleReplyRequest, signedReplyRequest, type SignedReplyRequest } from '../../src/testing/index.js';
import { capturingLogger, silent } from '../receiver/harness.js';
import { heldPost } from '../receiver/held-post.js';
import { expectEnvelopedRefusal, rawExchange, UNPARSABLE_REQUESTS } from '../support/raw-http.js';

const SECRET = 'rsec_5bC8qY2wVt0LmN4pR7sK1dF6';

function endpoint(options: Partial<ReplyEndpointOptions> = {}): ReplyEndpoint {
  return createReplyEndpoint({
    secret: SECRET,
    logger: silent,
    reply: () => 'Hello!',
    ...options,
  } as ReplyEndpointOptions);
}

function app(reply: ReplyEndpoint): express.Express {
  return express().post('/reply', reply.middleware());
}

function post(target: express.Express, signed: Pick<SignedReplyRequest, 'body' | 'headers'>, headers = {}) {
  return request(target)
    .post('/reply')
    .set({ ...signed.headers, ...headers })
    .send(signed.body);
}

describe('createReplyEndpoint through Express', () => {
  it('hands the typed request to the function and answers its reply', async () => {
    const seen: { request?: CustomReplyRequest; context?: ReplyContext } = {};
    const reply = endpoint({
      reply: (req, context) => {
        seen.request = req;
        seen.context = context;
        return `We open at 9 (${req.verified_knowledge[0]!.title})`;
      },
    });
    const signed = signedReplyRequest({ secret: SECRET, timestamp: Math.floor(Date.now() / 1000) });
    const res = await post(app(reply), signed).expect(200);
    expect(res.body).toEqual({ reply: 'We open at 9 (Opening hours)' });
    expect(seen.request).toEqual(signed.request);
    expect(seen.context!.timestamp).toBe(Number(signed.headers['x-service-timestamp']));
    expect(seen.context!.signal.aborted).toBe(false);
  });

  it('accepts an empty history, which the service sends when send_conversation_history is off', async () => {
    let seen: CustomReplyRequest | undefined;
    const reply = endpoint({ reply: (req) => ((seen = req), req.verified_knowledge[0]!.content) });
    const signed = signedReplyRequest({ secret: SECRET, request: { conversation_history: [] } });
    await post(app(reply), signed).expect(200);
    expect(seen?.conversation_history).toEqual([]);
  });

  it('accepts { reply } from the function, and a reply of exactly 4096 characters', async () => {
    await post(app(endpoint({ reply: async () => ({ reply: 'ok' }) })), signedReplyRequest({ secret: SECRET })).expect(
      200,
      { reply: 'ok' },
    );
    const long = 'a'.repeat(4096);
    const res = await post(app(endpoint({ reply: () => long })), signedReplyRequest({ secret: SECRET })).expect(200);
    expect(res.body.reply).toHaveLength(4096);
  });

  it('keeps fields it does not know (forward compatibility) and passes comment_reply tasks', async () => {
    let task: string | undefined;
    let extra: unknown;
    const reply = endpoint({
      reply: (req) => {
        task = req.task;
        extra = (req as Record<string, unknown>).channel_hint;
        return 'Thanks!';
      },
    });
    const body = JSON.stringify({ ...sampleReplyRequest({ task: 'comment_reply' }), channel_hint: 'photo_social' });
    await post(app(reply), signedReplyRequest({ secret: SECRET, body })).expect(200, { reply: 'Thanks!' });
    expect(task).toBe('comment_reply');
    expect(extra).toBe('photo_social');
  });

  it('verifies with any of several secrets (rotation)', async () => {
    const reply = endpoint({ secret: undefined, secrets: ['rsec_new', SECRET] });
    await post(app(reply), signedReplyRequest({ secret: SECRET })).expect(200);
    await post(app(reply), signedReplyRequest({ secret: 'rsec_new' })).expect(200);
  });

  it('mounted after express.json() answers 500 saying how to mount it, and never calls the function', async () => {
    let calls = 0;
    const reply = endpoint({ reply: () => (calls++, 'x') });
    const target = express().use(express.json()).post('/reply', reply.middleware());
    const res = await post(target, signedReplyRequest({ secret: SECRET })).expect(500);
    expect(res.body.error).toEqual({
      code: 'BODY_ALREADY_PARSED',
      message: expect.stringMatching(/before any body parser/),
    });
    expect(calls).toBe(0);
  });

  it('accepts the exact bytes left by express.raw()', async () => {
    const target = express()
      .use(express.raw({ type: 'application/json' }))
      .post('/reply', endpoint().middleware());
    await post(target, signedReplyRequest({ secret: SECRET })).expect(200, { reply: 'Hello!' });
  });
});

describe('what a reply endpoint refuses', () => {
  let calls: number;
  let target: express.Express;
  beforeEach(() => {
    calls = 0;
    target = app(endpoint({ reply: () => (calls++, 'never sent') }));
  });
  afterEach(() => expect(calls).toBe(0));

  const now = () => Math.floor(Date.now() / 1000);

  it.each([
    ['the wrong secret', () => signedReplyRequest({ secret: 'rsec_wrong' }), {}, 'SIGNATURE_MISMATCH'],
    ['no signature', () => signedReplyRequest({ secret: SECRET }), { 'x-service-signature': '' }, 'SIGNATURE_MISSING'],
    [
      'a stale timestamp',
      () => signedReplyRequest({ secret: SECRET, timestamp: now() - 301 }),
      {},
      'TIMESTAMP_OUT_OF_TOLERANCE',
    ],
    [
      'a malformed signature',
      () => signedReplyRequest({ secret: SECRET }),
      { 'x-service-signature': 'sha256=zz' },
      'SIGNATURE_MALFORMED',
    ],
  ])('answers 401 for %s, in the error envelope', async (_name, build, headers, code) => {
    const res = await post(target, build(), headers).expect(401);
    expect(res.body).toEqual({ error: { code, message: expect.any(String) } });
  });

  it('answers 401 for a body changed after signing', async () => {
    const signed = signedReplyRequest({ secret: SECRET });
    const res = await post(target, { ...signed, body: signed.body.replace('Saturday', 'Sunday') }).expect(401);
    expect(res.body.error.code).toBe('SIGNATURE_MISMATCH');
  });

  it('answers 415 to a body that is not JSON', async () => {
    const res = await post(target, signedReplyRequest({ secret: SECRET }), { 'content-type': 'text/plain' }).expect(
      415,
    );
    expect(res.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers 400 MALFORMED_JSON to signed bytes that are not JSON', async () => {
    const res = await post(target, signedReplyRequest({ secret: SECRET, body: '{"version": "1",' })).expect(400);
    expect(res.body.error.code).toBe('MALFORMED_JSON');
    // V8 quotes the start of the input in its reason; the body may hold a secret.
    const leaky = await post(target, signedReplyRequest({ secret: SECRET, body: '{"token": sk_live_x}' }));
    expect([leaky.status, JSON.stringify(leaky.body).includes('sk_live')]).toEqual([400, false]);
  });

  const history = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ role: 'customer', content: `m${i}`, created_at: new Date().toISOString() }));
  it.each([
    ['an unknown version', { version: '2' }, 'version'],
    ['an unknown task', { task: 'summarize' }, 'task'],
    [
      `more than ${REPLY_HISTORY_MAX} messages`,
      { conversation_history: history(REPLY_HISTORY_MAX + 1) },
      'conversation_history',
    ],
    [
      'six knowledge entries',
      { verified_knowledge: Array(6).fill(sampleReplyRequest().verified_knowledge[0]) },
      'verified_knowledge',
    ],
    [
      'a history message with an unknown role',
      { conversation_history: [{ role: 'bot', content: 'x', created_at: new Date().toISOString() }] },
      'conversation_history.0.role',
    ],
    ['tool context that is not a list', { verified_tool_context: {} }, 'verified_tool_context'],
  ])('answers 400 INVALID_REQUEST naming the field for %s', async (_name, change, field) => {
    const body = JSON.stringify({ ...sampleReplyRequest(), ...change });
    const res = await post(target, signedReplyRequest({ secret: SECRET, body })).expect(400);
    expect(res.body.error.code).toBe('INVALID_REQUEST');
    expect(res.body.error.message).toContain(`${field}: `);
  });

  it('answers 400 INVALID_REQUEST when the body is a JSON array', async () => {
    const res = await post(target, signedReplyRequest({ secret: SECRET, body: '[]' })).expect(400);
    expect(res.body.error.code).toBe('INVALID_REQUEST');
  });

  it('answers 405 to a GET', async () => {
    const res = await request(express().use('/reply', endpoint().middleware())).get('/reply').expect(405);
    expect(res.headers.allow).toBe('POST');
  });
});

describe('what the function answers', () => {
  it('answers 504 REPLY_TIMEOUT past timeoutMs and aborts the signal', async () => {
    let signal: AbortSignal | undefined;
    const reply = endpoint({
      timeoutMs: 50,
      reply: (_req, context) =>
        new Promise<string>((resolve) => {
          signal = context.signal;
          context.signal.addEventListener('abort', () => resolve('too late'));
        }),
    });
    const res = await post(app(reply), signedReplyRequest({ secret: SECRET })).expect(504);
    expect(res.body.error).toEqual({ code: 'REPLY_TIMEOUT', message: expect.stringContaining('50 ms') });
    expect(signal!.aborted).toBe(true);
  });

  it('answers 500 REPLY_FAILED when the function throws, logging the error but not answering it', async () => {
    const log = capturingLogger();
    const reply = endpoint({
      logger: log.logger,
      reply: () => {
        throw new Error('database password is hunter2');
      },
    });
    const res = await post(app(reply), signedReplyRequest({ secret: SECRET })).expect(500);
    expect(res.body.error.code).toBe('REPLY_FAILED');
    expect(JSON.stringify(res.body)).not.toContain('hunter2');
    expect(log.text()).toContain('hunter2');
  });

  it('answers 422 NO_REPLY when the function answers nothing (the service hands off)', async () => {
    for (const nothing of [null, undefined]) {
      const res = await post(app(endpoint({ reply: () => nothing })), signedReplyRequest({ secret: SECRET })).expect(
        422,
      );
      expect(res.body.error.code).toBe('NO_REPLY');
    }
  });

  it.each([
    ['an empty reply', ''],
    ['a blank reply', '  \n '],
    ['a reply over 4096 characters', 'a'.repeat(4097)],
    ['a number', 42],
    ['an object without reply', { text: 'hi' }],
  ])('answers 500 INVALID_REPLY for %s, sending nothing the service would refuse', async (_name, result) => {
    const reply = endpoint({ reply: () => result as never });
    const res = await post(app(reply), signedReplyRequest({ secret: SECRET })).expect(500);
    expect(res.body.error.code).toBe('INVALID_REPLY');
  });

  it('answers 503 when the secret provider fails, without calling the function', async () => {
    let calls = 0;
    const reply = endpoint({
      secret: undefined,
      secrets: async () => {
        throw new Error('vault down');
      },
      reply: () => (calls++, 'x'),
    });
    const res = await post(app(reply), signedReplyRequest({ secret: SECRET })).expect(503);
    expect(res.body.error.code).toBe('SECRETS_UNAVAILABLE');
    expect(calls).toBe(0);
  });

  it('never logs the secret or the signature', async () => {
    const log = capturingLogger();
    const reply = endpoint({ logger: log.logger });
    const good = signedReplyRequest({ secret: SECRET });
    await post(app(reply), good).expect(200);
    await post(app(reply), signedReplyRequest({ secret: 'rsec_wrong' })).expect(401);
    expect(log.text()).not.toContain(SECRET);
    expect(log.text()).not.toContain(good.headers['x-service-signature'].slice(7));
    expect(log.records().some((r) => r.code === 'SIGNATURE_MISMATCH')).toBe(true);
  });
});

describe('node:http server (endpoint.createServer) and fetch handler', () => {
  let server: Server;
  let url: string;
  beforeEach(async () => {
    server = endpoint({ maxBodyBytes: 4096 }).createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/reply`;
  });
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers a signed request over a real socket', async () => {
    const signed = signedReplyRequest({ secret: SECRET });
    const res = await fetch(url, { method: 'POST', headers: signed.headers, body: signed.body });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ reply: 'Hello!' });
  });

  it("answers what Node cannot parse in the endpoint's envelope", async () => {
    const port = Number(new URL(url).port);
    for (const unparsable of UNPARSABLE_REQUESTS)
      expectEnvelopedRefusal(await rawExchange(port, unparsable[1]), unparsable);
  });

  it('answers 413 to a body over maxBodyBytes, declared or streamed', async () => {
    const big = signedReplyRequest({ secret: SECRET, request: { reply_instructions: 'x'.repeat(5000) } });
    const declared = await fetch(url, { method: 'POST', headers: big.headers, body: big.body });
    expect(declared.status).toBe(413);
    expect(((await declared.json()) as { error: { code: string } }).error.code).toBe('PAYLOAD_TOO_LARGE');
    const chunks = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(1000)));
        controller.close();
      },
    });
    const streamed = await fetch(url, {
      method: 'POST',
      headers: big.headers,
      body: chunks,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
  });

  it('answers an unsigned request from its headers, before its body arrives (node:http and fetch)', async () => {
    const signed = signedReplyRequest({ secret: SECRET });
    const headers = { ...signed.headers, 'x-service-signature': '' };
    // A body that is begun and never ended: only an answer given without reading it can arrive.
    const req = httpRequest(url, { method: 'POST', headers, agent: false });
    const status = new Promise<number | undefined>((resolve) => req.on('response', (res) => resolve(res.statusCode)));
    req.on('error', () => undefined);
    req.write('{"task":');
    expect(await status).toBe(401);
    req.destroy();
    const endless = new ReadableStream({ start: () => undefined });
    const direct = await endpoint().fetch(
      new Request(url, { method: 'POST', headers, body: endless, duplex: 'half' } as RequestInit),
    );
    expect(((await direct.json()) as { error: { code: string } }).error.code).toBe('SIGNATURE_MISSING');
  });

  it('bounds the bodies in flight (503) and frees a body still unsent after bodyTimeoutMs (408)', async () => {
    // The body timeout runs from a request's headers; long enough that the third request comes while the
    // first two still hold the bound, however loaded the machine (the test waits for it once).
    const bounded = createServer(
      endpoint({ maxBodyBytes: 4096, maxInFlightBytes: 8192, bodyTimeoutMs: 3000 }).listener,
    );
    // Heard after the endpoint's own listener, which has reserved the declared length by then.
    let admitted = 0;
    bounded.on('request', () => admitted++);
    await new Promise<void>((resolve) => bounded.listen(0, '127.0.0.1', resolve));
    const at = `http://127.0.0.1:${(bounded.address() as AddressInfo).port}/reply`;
    const signed = signedReplyRequest({ secret: SECRET });
    // Declared, well-signed-looking bodies that never come: two fill the bound, a third is told to retry.
    const stalled = [0, 1].map(() => heldPost(at, signed.headers, Buffer.alloc(4096, 'x'), 10));
    await expect.poll(() => admitted, { timeout: 10_000, interval: 10 }).toBe(2);
    const over = await heldPost(at, signed.headers, Buffer.alloc(4096, 'x'), 0).answer;
    expect([over.status, over.body.error?.code, over.headers['retry-after']]).toEqual([503, 'BODIES_IN_FLIGHT', '1']);
    const answers = await Promise.all(stalled.map((s) => s.answer));
    expect(answers.map((a) => `${a.status} ${a.body.error?.code}`)).toEqual(Array(2).fill('408 BODY_TIMEOUT'));
    const ok = await fetch(at, { method: 'POST', headers: signed.headers, body: signed.body });
    expect(ok.status).toBe(200);
    bounded.closeAllConnections();
    await new Promise((resolve) => bounded.close(resolve));
  });

  it('endpoint.handle refuses a body handed in whole over maxBodyBytes, before the function runs', async () => {
    let calls = 0;
    const reply = endpoint({ maxBodyBytes: 4096, reply: () => (calls++, 'x') });
    const big = signedReplyRequest({ secret: SECRET, request: { reply_instructions: 'x'.repeat(5000) } });
    const res = await reply.handle({ headers: big.headers, rawBody: big.body });
    expect([res.status, (res.body as { error: { code: string } }).error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(calls).toBe(0);
  });

  it('the fetch handler answers like the others', async () => {
    const reply = endpoint({ maxBodyBytes: 4096 });
    const signed = signedReplyRequest({ secret: SECRET });
    const ok = await reply.fetch(new Request(url, { method: 'POST', headers: signed.headers, body: signed.body }));
    expect(await ok.json()).toEqual({ reply: 'Hello!' });
    const bad = await reply.fetch(
      new Request(url, { method: 'POST', headers: signed.headers, body: signed.body.replace('Hi', 'Yo') }),
    );
    expect(bad.status).toBe(401);
    const big = await reply.fetch(
      new Request(url, { method: 'POST', headers: signed.headers, body: 'x'.repeat(5000) }),
    );
    expect(big.status).toBe(413);
  });
});

describe('options', () => {
  it.each([
    ['no secret', { secret: undefined }, /`secret` is undefined \(is the environment variable/],
    ['an empty secret', { secret: '' }, /empty or non-string/],
    ['an empty list of secrets', { secret: undefined, secrets: [] }, /`secrets` to be one or more/],
    ['a list holding a non-string', { secret: undefined, secrets: [SECRET, 42] }, /`secrets` to be one or more/],
    ['no reply function', { reply: 'hello' }, /`reply` to be a function/],
    ['a timeout over 10 s', { timeoutMs: 10_001 }, /`timeoutMs`/],
    ['a fractional timeout', { timeoutMs: 1.5 }, /`timeoutMs`/],
    ['a zero body limit', { maxBodyBytes: 0 }, /`maxBodyBytes`/],
    ['an in-flight bound below the body limit', { maxBodyBytes: 1000, maxInFlightBytes: 999 }, /`maxInFlightBytes`/],
    ['a zero body timeout', { bodyTimeoutMs: 0 }, /`bodyTimeoutMs`/],
  ])('refuses %s with an InvalidOptionError naming it', (_name, change, message) => {
    const make = () =>
      createReplyEndpoint({ secret: SECRET, reply: () => 'x', ...change } as unknown as ReplyEndpointOptions);
    expect(make).toThrow(message);
    expect(make).toThrow(InvalidOptionError);
  });
});
