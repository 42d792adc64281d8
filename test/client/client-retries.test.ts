import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionError, createApiClient, RateLimitError, ServerError, TimeoutError } from '../../src/client/index.js';
import { closedPort, fail, json, type ScriptedServer, type Script, startScripted } from './scripted-server.js';
import { testTable, thing } from './test-table.js';

const apiKey = 'svc_live_' + 'r'.repeat(32);
const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A client with a tiny backoff so retries happen at once (no wall-clock in these tests). */
async function setup(
  script: Script,
  options: { timeoutMs?: number; totalTimeoutMs?: number; maxRetries?: number; maxRetryAfterMs?: number } = {},
) {
  const server = await startScripted(script);
  servers.push(server);
  const client = createApiClient(testTable, {
    apiKey,
    baseUrl: server.url,
    backoffBaseMs: 1,
    backoffMaxMs: 2,
    ...options,
  });
  return { server, client };
}

const drop: Script = (_req, res) => {
  res.socket?.destroy();
};

describe('retries', () => {
  it('retries a 503 and returns the success that follows', async () => {
    const { server, client } = await setup((_req, res, i) =>
      i === 0 ? fail(res, 503, 'SERVICE_UNAVAILABLE') : json(res, 200, thing()),
    );
    const { data, response } = await client.things.get({ id: 'thg_1' }).withResponse();
    expect(data).toEqual(thing());
    expect(response.attempts).toBe(2);
    expect(server.seen.map((r) => r.url)).toEqual(['/v1/things/thg_1', '/v1/things/thg_1']);
  });

  it.each([502, 504])('retries a %i on a GET', async (status) => {
    const { server, client } = await setup((_req, res, i) =>
      i === 0 ? json(res, status, 'gateway') : json(res, 200, thing()),
    );
    await expect(client.things.get({ id: 'x' })).resolves.toEqual(thing());
    expect(server.seen).toHaveLength(2);
  });

  it('retries a 500 on a GET and on a send with its key (5xx results are not kept, decisions §5)', async () => {
    const { server, client } = await setup((_req, res, i) =>
      i % 2 === 0 ? fail(res, 500, 'INTERNAL_ERROR') : json(res, i === 1 ? 200 : 201, thing()),
    );
    await expect(client.things.get({ id: 'x' })).resolves.toEqual(thing());
    await expect(client.things.send({ id: 'x', content: 'hi' })).resolves.toEqual(thing());
    expect(server.seen.map((r) => r.method)).toEqual(['GET', 'GET', 'POST', 'POST']);
  });

  it('does not retry a 500 of a POST without Idempotency-Key, nor a 501', async () => {
    const { server, client } = await setup((_req, res, i) =>
      i === 0 ? fail(res, 500, 'INTERNAL_ERROR') : fail(res, 501, 'NOT_IMPLEMENTED'),
    );
    await expect(client.things.create({ name: 'a' })).rejects.toBeInstanceOf(ServerError);
    await expect(client.things.get({ id: 'x' })).rejects.toMatchObject({ status: 501 });
    expect(server.seen).toHaveLength(2);
  });

  it('reads Retry-After as an HTTP date, and takes the usual backoff for one in the past or a negative number', async () => {
    const soon = new Date(Date.now() + 1_000).toUTCString();
    const past = new Date(Date.now() - 60_000).toUTCString();
    const after = [soon, past, '-5'];
    const { server, client } = await setup(
      (_req, res, i) =>
        i < 3 ? fail(res, 429, 'RATE_LIMITED', { headers: { 'retry-after': after[i]! } }) : json(res, 200, thing()),
      { maxRetries: 3, maxRetryAfterMs: 2_000 },
    );
    const { response } = await client.things.get({ id: 'x' }).withResponse();
    expect(response.attempts).toBe(4);
    expect(server.seen).toHaveLength(4);
  });

  it('throws at once on an absurd Retry-After (a year, or digits past any number)', async () => {
    const { server, client } = await setup((_req, res, i) =>
      fail(res, 429, 'RATE_LIMITED', { headers: { 'retry-after': i === 0 ? '31536000' : '9'.repeat(400) } }),
    );
    const year = await client.things.get({ id: 'x' }).catch((e: unknown) => e);
    expect(year).toBeInstanceOf(RateLimitError);
    expect((year as RateLimitError).retryAfter).toBe(31_536_000);
    const huge = await client.things.get({ id: 'x' }).catch((e: unknown) => e);
    expect(huge).toBeInstanceOf(RateLimitError);
    expect(server.seen).toHaveLength(2);
  });

  it('gives up after maxRetries and throws the last answer as an ApiError', async () => {
    const { server, client } = await setup((_req, res) => fail(res, 503, 'SERVICE_UNAVAILABLE'), { maxRetries: 3 });
    await expect(client.things.get({ id: 'x' })).rejects.toBeInstanceOf(ServerError);
    expect(server.seen).toHaveLength(4);
  });

  it('a per-call maxRetries overrides the client default', async () => {
    const { server, client } = await setup((_req, res) => fail(res, 503, 'SERVICE_UNAVAILABLE'));
    await expect(client.things.get({ id: 'x' }, { maxRetries: 0 })).rejects.toBeInstanceOf(ServerError);
    expect(server.seen).toHaveLength(1);
  });

  it('does not retry a 503 of a POST without Idempotency-Key (it may have acted)', async () => {
    const { server, client } = await setup((_req, res) => fail(res, 503, 'SERVICE_UNAVAILABLE'));
    await expect(client.things.create({ name: 'a' })).rejects.toBeInstanceOf(ServerError);
    expect(server.seen).toHaveLength(1);
  });

  it('honours Retry-After on a 429, then succeeds', async () => {
    const { server, client } = await setup(
      (_req, res, i) =>
        i === 0 ? fail(res, 429, 'RATE_LIMITED', { headers: { 'retry-after': '1' } }) : json(res, 201, thing()),
      { maxRetryAfterMs: 1_000 },
    );
    // A 429 is refused before handling, so even a plain POST is retried.
    const { response } = await client.things.create({ name: 'a' }).withResponse();
    expect(response.attempts).toBe(2);
    expect(server.seen.map((r) => r.method)).toEqual(['POST', 'POST']);
  });

  it('does not wait for a Retry-After longer than maxRetryAfterMs: RateLimitError at once', async () => {
    const { server, client } = await setup(
      (_req, res) => fail(res, 429, 'RATE_LIMITED', { headers: { 'retry-after': '2' } }),
      { maxRetryAfterMs: 1_000 },
    );
    const error = await client.things.get({ id: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(2);
    expect((error as RateLimitError).code).toBe('RATE_LIMITED');
    expect(server.seen).toHaveLength(1);
  });

  it('times out a slow answer with TimeoutError, retrying a GET', async () => {
    const { server, client } = await setup(() => undefined, { timeoutMs: 100, maxRetries: 1 });
    const error = await client.things.get({ id: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).attempts).toBe(2);
    // Under load a 100 ms attempt may end before its request reached the server: the client's count is the claim.
    expect(server.seen.length).toBeLessThanOrEqual(2);
  });

  it('ends a call at totalTimeoutMs, attempts and waits included, naming the attempts made', async () => {
    const { server, client } = await setup(() => undefined, { timeoutMs: 200, totalTimeoutMs: 500, maxRetries: 10 });
    const error = await client.things.get({ id: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    const { attempts, overall, timeoutMs, message } = error as TimeoutError;
    expect(overall).toBe(true);
    expect(timeoutMs).toBe(500);
    // The deadline may fall while the last attempt is still connecting: that attempt counts (it was made)
    // though the server never saw it. How many fit in 500 ms depends on the machine's load, so no exact count.
    expect(attempts).toBeGreaterThanOrEqual(1);
    expect(attempts).toBeLessThan(11);
    expect(server.seen.length).toBeLessThanOrEqual(attempts);
    expect(server.seen.length).toBeGreaterThanOrEqual(attempts - 1);
    expect(message).toContain(`reached its overall deadline of 500 ms (totalTimeoutMs) after ${attempts} attempt(s)`);
  });

  it('fails at once with TimeoutError when the wait before a retry would end past totalTimeoutMs (per call too)', async () => {
    const { server, client } = await setup(
      (_req, res) => fail(res, 503, 'SERVICE_UNAVAILABLE', { headers: { 'retry-after': '30' } }),
      { maxRetryAfterMs: 60_000 },
    );
    const error = await client.things.get({ id: 'x' }, { totalTimeoutMs: 5_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).attempts).toBe(1);
    expect((error as TimeoutError).message).toContain(
      'after 1 attempt(s); the last attempt ended in HTTP 503 (request req_service_unavailable)',
    );
    expect(server.seen).toHaveLength(1);
  });

  it('refuses a totalTimeoutMs that is not a positive integer, naming the option', async () => {
    const { client } = await setup(() => undefined);
    expect(() => createApiClient(testTable, { apiKey, totalTimeoutMs: 0 })).toThrow(
      'Expected `totalTimeoutMs` to be an integer from 1 to 6600000, got `0`',
    );
    await expect(client.things.get({ id: 'x' }, { totalTimeoutMs: 1.5 })).rejects.toThrow(/`totalTimeoutMs`/);
  });

  it('does not retry a timed-out POST without Idempotency-Key', async () => {
    const { server, client } = await setup(() => undefined, { timeoutMs: 100 });
    const error = await client.things.create({ name: 'a' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    // One attempt, and no other: on a loaded machine 100 ms may pass before the request reaches the server at all.
    expect((error as TimeoutError).attempts).toBe(1);
    expect(server.seen.length).toBeLessThanOrEqual(1);
  });

  it('retries a GET whose connection was dropped', async () => {
    const { server, client } = await setup((req, res, i) => (i === 0 ? drop(req, res, i) : json(res, 200, thing())));
    await expect(client.things.get({ id: 'x' })).resolves.toEqual(thing());
    expect(server.seen).toHaveLength(2);
  });

  it('never retries a POST without Idempotency-Key once its bytes reached the server', async () => {
    const { server, client } = await setup(drop);
    const error = await client.things.create({ name: 'a' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).code).toBe('CONNECTION_LOST');
    expect(server.seen).toHaveLength(1);
  });

  it('retries even a plain POST when the connection was refused (nothing was sent)', async () => {
    const port = await closedPort();
    const client = createApiClient(testTable, {
      apiKey,
      baseUrl: `http://127.0.0.1:${port}`,
      backoffBaseMs: 1,
      maxRetries: 2,
    });
    const error = await client.things.create({ name: 'a' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).code).toBe('CONNECTION_REFUSED');
    expect((error as ConnectionError).attempts).toBe(3);
  });

  it('stops at once when the caller aborts, with the abort reason', async () => {
    const { server, client } = await setup(() => undefined, { timeoutMs: 10_000 });
    const controller = new AbortController();
    const call = client.things.get({ id: 'x' }, { signal: controller.signal });
    while (server.seen.length === 0) await new Promise((r) => setImmediate(r));
    controller.abort(new Error('caller gave up'));
    await expect(call).rejects.toThrow('caller gave up');
    expect(server.seen).toHaveLength(1);
  });
});

describe('idempotency', () => {
  it('generates one UUID key for a send and reuses it on every retry', async () => {
    const { server, client } = await setup((_req, res, i) =>
      i < 2 ? (i === 0 ? fail(res, 503, 'SERVICE_UNAVAILABLE') : drop(_req, res, i)) : json(res, 201, thing()),
    );
    const { response } = await client.things.send({ id: 'thg_1', content: 'hi' }).withResponse();
    const keys = server.seen.map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(response.idempotencyKey).toBe(keys[0]);
    expect(response.idempotentReplayed).toBe(false);
    expect(server.seen.every((r) => r.body === '{"content":"hi"}')).toBe(true);
  });

  it('a new call gets a new key; a caller key is sent as given; a replay is reported', async () => {
    const { server, client } = await setup((_req, res, i) =>
      json(res, 201, thing(), i === 2 ? { 'idempotent-replayed': 'true' } : {}),
    );
    await client.things.send({ id: 'thg_1', content: 'hi' });
    const first = await client.things.send({ id: 'thg_1', content: 'hi' }).withResponse();
    const replay = await client.things.send({ id: 'thg_1', content: 'hi', idempotencyKey: 'order-42' }).withResponse();
    const keys = server.seen.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys[2]).toBe('order-42');
    expect(first.response.idempotentReplayed).toBe(false);
    expect(replay.response.idempotentReplayed).toBe(true);
    expect(replay.response.idempotencyKey).toBe('order-42');
  });

  it('does not retry a POST whose route takes no Idempotency-Key, even with the header added by the caller', async () => {
    // The service honours the key on the two send routes only (spec, Send behavior 6): elsewhere it is
    // ignored, so a retry would act twice.
    const { server, client } = await setup((req, res, i) => (i === 0 ? drop(req, res, i) : json(res, 201, thing())));
    const error = await client.things
      .create({ name: 'a' }, { headers: { 'Idempotency-Key': 'mine-1' } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'CONNECTION_LOST' });
    expect(server.seen).toHaveLength(1);
  });

  it('retries a 409 IDEMPOTENCY_KEY_IN_USE of a send (the first attempt is still running), with the same key', async () => {
    const { server, client } = await setup((_req, res, i) =>
      i === 0 ? fail(res, 409, 'IDEMPOTENCY_KEY_IN_USE') : json(res, 201, thing()),
    );
    const { response } = await client.things.send({ id: 'thg_1', content: 'hi' }).withResponse();
    expect(response.attempts).toBe(2);
    const keys = server.seen.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toBe(keys[1]);
  });

  it('a key given in headers on a send route is the call key: checked, and the same on every retry', async () => {
    const { server, client } = await setup((req, res, i) => (i === 0 ? drop(req, res, i) : json(res, 201, thing())));
    const { response } = await client.things
      .send({ id: 'thg_1', content: 'hi' }, { headers: { 'Idempotency-Key': 'mine-1' } })
      .withResponse();
    expect(server.seen.map((r) => r.headers['idempotency-key'])).toEqual(['mine-1', 'mine-1']);
    expect(response.idempotencyKey).toBe('mine-1');
    const long = await client.things
      .send({ id: 'thg_1', content: 'hi' }, { headers: { 'idempotency-key': 'k'.repeat(201) } })
      .catch((e: unknown) => e);
    expect(long).toMatchObject({ code: 'INVALID_INPUT', issues: [{ path: 'idempotencyKey' }] });
    expect(server.seen).toHaveLength(2);
  });
});
