import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, InvalidInputError } from '../../src/client/index.js';
import { json, type ScriptedServer, startScripted } from './scripted-server.js';
import { testTable, thing } from './test-table.js';

const apiKey = 'svc_live_' + 'k'.repeat(32);
let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function echoServer() {
  server = await startScripted((req, res) =>
    req.url.startsWith('/v1/things?')
      ? json(res, 200, { data: [], pagination: { has_more: false, next_cursor: null } })
      : json(res, req.method === 'POST' ? 201 : 200, thing()),
  );
  return server;
}

describe('input: validated and split before a byte is sent', () => {
  it('names every failing field and sends nothing', async () => {
    const srv = await echoServer();
    const client = createApiClient(testTable, { apiKey, baseUrl: srv.url });
    const bad = { id: 'thg_1', name: '', tags: ['ok', 'toolong'], ifMatch: '3' };
    const error = await client.things.update(bad).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InvalidInputError);
    const paths = (error as InvalidInputError).issues.map((i) => i.path).sort();
    expect(paths).toEqual(['ifMatch', 'name', 'tags[1]']);
    expect((error as InvalidInputError).message).toContain('things.update');
    expect((error as InvalidInputError).message).toContain('ifMatch: expected an ETag');
    expect(srv.seen).toHaveLength(0);
  });

  it('refuses a field the route does not know instead of dropping it', async () => {
    const srv = await echoServer();
    const client = createApiClient(testTable, { apiKey, baseUrl: srv.url });
    // @ts-expect-error -- `nmae` is not a field of things.create
    await expect(client.things.create({ name: 'x', nmae: 'typo' })).rejects.toThrow(
      /nmae: unknown field; did you mean name\?/,
    );
    await expect(client.things.create(42 as never)).rejects.toThrow(/expected an object, got number/);
    expect(srv.seen).toHaveLength(0);
  });

  it('names the declared field a misspelt, other-cased or camelCased key likely meant, and none when nothing is close', async () => {
    const srv = await echoServer();
    const client = createApiClient(testTable, { apiKey, baseUrl: srv.url });
    await expect(client.things.list({ stauts: 'active' } as never)).rejects.toThrow(
      /stauts: unknown query parameter; did you mean status\?/,
    );
    await expect(client.things.list({ Limit: 5 } as never)).rejects.toThrow(
      /Limit: unknown query parameter; did you mean limit\?/,
    );
    await expect(client.things.update({ id: 'x', IfMatch: '"3"' } as never)).rejects.toThrow(/did you mean ifMatch\?/);
    await expect(client.things.list({ zzz: 1 } as never)).rejects.toThrow(
      /zzz: unknown query parameter; expected one of limit, cursor, status$/,
    );
    expect(srv.seen).toHaveLength(0);
  });

  it('refuses keys every object inherits (constructor, toString, __proto__) as unknown, and reads no inherited value', async () => {
    const srv = await echoServer();
    const client = createApiClient(testTable, { apiKey, baseUrl: srv.url });
    await expect(client.things.get({ id: 'x', constructor: 'y' } as never)).rejects.toThrow(
      /constructor: unknown query parameter; expected one of id$/,
    );
    await expect(client.things.create({ name: 'x', toString: 'y' } as never)).rejects.toThrow(
      /toString: unknown field/,
    );
    const parsed = JSON.parse('{"__proto__": {"id": "other"}, "name": "x"}') as never;
    await expect(client.things.update(parsed)).rejects.toThrow(/__proto__: unknown field/);
    expect(srv.seen).toHaveLength(0);
  });

  it('sends per-call headers given as a Headers object, and refuses a signal that is not an AbortSignal', async () => {
    const srv = await echoServer();
    const client = createApiClient(testTable, { apiKey, baseUrl: srv.url });
    await client.things.get({ id: 'x' }, { headers: new Headers({ 'X-Request-ID': 'corr-1' }) });
    expect(srv.seen[0]?.headers['x-request-id']).toBe('corr-1');
    const controller = new AbortController();
    await expect(client.things.get({ id: 'x' }, { signal: controller as never })).rejects.toThrow(
      'Expected `signal` to be an AbortSignal',
    );
    expect(srv.seen).toHaveLength(1);
  });

  it('does not send at all when the caller has already aborted', async () => {
    const srv = await echoServer();
    const client = createApiClient(testTable, { apiKey, baseUrl: srv.url });
    await expect(client.things.get({ id: 'x' }, { signal: AbortSignal.abort(new Error('gone')) })).rejects.toThrow(
      'gone',
    );
    expect(srv.seen).toHaveLength(0);
  });

  it('puts params in the path, query in the URL, body as JSON and header options as headers', async () => {
    const srv = await echoServer();
    const client = createApiClient(testTable, { apiKey, baseUrl: srv.url });
    await client.things.update({ id: 'thg_9', name: 'new', ifMatch: '"4"' });
    await client.things.list({ status: 'active', limit: 5 });
    const [update, list] = srv.seen;
    expect(update?.method).toBe('PATCH');
    expect(update?.url).toBe('/v1/things/thg_9');
    expect(update?.headers['if-match']).toBe('"4"');
    expect(update?.headers['content-type']).toBe('application/json');
    expect(update?.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(JSON.parse(update?.body ?? '')).toEqual({ name: 'new' });
    expect(list?.url).toBe('/v1/things?limit=5&status=active');
    expect(list?.body).toBe('');
  });

  it('percent-encodes path segments', async () => {
    const srv = await echoServer();
    const client = createApiClient(testTable, { apiKey, baseUrl: srv.url });
    await client.things.get({ id: 'a/b c?d#e%' });
    expect(srv.seen[0]?.url).toBe('/v1/things/a%2Fb%20c%3Fd%23e%25');
    // Nothing an id holds leaves its segment: not a parent step, a query, a fragment or a backslash.
    for (const id of ['../../admin', '..%2F..', '?limit=1', '#x', '..\\..', './.']) await client.things.get({ id });
    expect(srv.seen.slice(1).map((r) => r.url)).toEqual([
      '/v1/things/..%2F..%2Fadmin',
      '/v1/things/..%252F..',
      '/v1/things/%3Flimit%3D1',
      '/v1/things/%23x',
      '/v1/things/..%5C..',
      '/v1/things/.%2F.',
    ]);
  });

  it('refuses "." and ".." path segments with a clear error and sends nothing', async () => {
    const srv = await echoServer();
    const client = createApiClient(testTable, { apiKey, baseUrl: srv.url });
    for (const id of ['.', '..']) {
      await expect(client.things.get({ id })).rejects.toThrow(
        `id: path segment must not be empty, "." or "..", got "${id}"`,
      );
    }
    expect(srv.seen).toHaveLength(0);
  });

  it('sends no Authorization header on a route declared auth: false', async () => {
    const srv = await startScripted((_req, res) => json(res, 200, { status: 'ok' }));
    server = srv;
    const client = createApiClient(testTable, { apiKey, baseUrl: srv.url });
    await expect(client.health.get()).resolves.toEqual({ status: 'ok' });
    expect(srv.seen[0]?.headers.authorization).toBeUndefined();
  });

  it('sends through a caller-supplied fetch and user agent', async () => {
    const srv = await echoServer();
    const calls: string[] = [];
    const wrapped: typeof fetch = (url, init) => {
      calls.push(String(url));
      return fetch(url, init);
    };
    const client = createApiClient(testTable, { apiKey, baseUrl: srv.url, fetch: wrapped, userAgent: 'crm-sync/1.0' });
    await client.things.get({ id: 'x' });
    expect(calls).toEqual([`${srv.url}/v1/things/x`]);
    expect(srv.seen[0]?.headers['user-agent']).toBe('crm-sync/1.0');
  });

  it('refuses a per-call header that could split the request, without quoting its value', async () => {
    const srv = await echoServer();
    const client = createApiClient(testTable, { apiKey, baseUrl: srv.url });
    const error = await client.things
      .get({ id: 'x' }, { headers: { 'x-note': 'a\r\nx-injected: 1' } })
      .catch((e: unknown) => e);
    expect(String(error)).toContain('`headers` entry `x-note`');
    expect(String(error)).not.toContain('injected');
    await expect(client.things.get({ id: 'x' }, { headers: { 'bad name': 'v' } })).rejects.toThrow(
      '`headers` entry `bad name`',
    );
    expect(srv.seen).toHaveLength(0);
  });

  it('refuses an Idempotency-Key outside 1-200 characters', async () => {
    const srv = await echoServer();
    const client = createApiClient(testTable, { apiKey, baseUrl: srv.url });
    await expect(client.things.send({ id: 't', content: 'hi', idempotencyKey: 'k'.repeat(201) })).rejects.toThrow(
      /idempotencyKey: expected a string of 1 to 200/,
    );
    await expect(client.things.send({ id: 't', content: 'hi', idempotencyKey: '' })).rejects.toThrow(InvalidInputError);
    expect(srv.seen).toHaveLength(0);
  });

  it('refuses an Idempotency-Key a header cannot carry as it is, naming it (it was tried 3 times as a lost connection)', async () => {
    const srv = await echoServer();
    const client = createApiClient(testTable, { apiKey, baseUrl: srv.url, backoffBaseMs: 1 });
    for (const key of ['order\n42', 'k€y', 'nul\u0000', ' padded ']) {
      const error = await client.things.send({ id: 't', content: 'hi', idempotencyKey: key }).catch((e: unknown) => e);
      expect(error, JSON.stringify(key)).toBeInstanceOf(InvalidInputError);
      expect(error).toMatchObject({
        issues: [{ path: 'idempotencyKey', message: expect.stringContaining('visible ASCII') }],
      });
    }
    await client.things.send({ id: 't', content: 'hi', idempotencyKey: 'order 42: cafe' });
    expect(srv.seen.map((r) => r.headers['idempotency-key'])).toEqual(['order 42: cafe']);
  });
});

describe('base address', () => {
  it.each(['', '/', '//', '/v1', '/v1/', '/v1//', '/V1'])(
    'reaches /v1 paths from the origin written as "%s"',
    async (suffix) => {
      const srv = await echoServer();
      await createApiClient(testTable, { apiKey, baseUrl: srv.url + suffix }).things.get({ id: 'x' });
      expect(srv.seen[0]?.url).toBe('/v1/things/x');
    },
  );

  it.each(['/api/v1', '/api/v1/'])('keeps the compatibility prefix of "%s"', async (suffix) => {
    const srv = await echoServer();
    const client = createApiClient(testTable, { apiKey, baseUrl: srv.url + suffix });
    expect(client.baseUrl).toBe(`${srv.url}/api`);
    await client.things.get({ id: 'x' });
    expect(srv.seen[0]?.url).toBe('/api/v1/things/x');
  });

  it('refuses plain http to a host that is not this machine: the key would cross the network in clear', () => {
    for (const baseUrl of ['http://api.example.com/v1', 'http://10.0.0.5:4010', 'http://[2001:db8::1]/']) {
      expect(() => createApiClient(testTable, { apiKey, baseUrl }), baseUrl).toThrow(
        /`baseUrl` to use https: for a host other than this machine .*allowInsecureHttp/,
      );
    }
    for (const baseUrl of [
      'http://localhost:4010',
      'http://emulator.localhost:4010',
      'http://127.0.0.1:4010/v1',
      'http://127.8.9.10',
      'http://[::1]:4010',
      'https://api.example.com/v1',
    ]) {
      expect(createApiClient(testTable, { apiKey, baseUrl }).baseUrl, baseUrl).toMatch(/^http/);
    }
    // A docker-compose service name, for instance, on a network the caller vouches for.
    const allowed = createApiClient(testTable, { apiKey, baseUrl: 'http://emulator:4010', allowInsecureHttp: true });
    expect(allowed.baseUrl).toBe('http://emulator:4010');
  });

  it('refuses a bad base address or option, naming it and never echoing the key', () => {
    expect(() => createApiClient(testTable, { apiKey, baseUrl: 'ftp://h' })).toThrow(
      /`baseUrl` to use https: or http:, got `ftp:`/,
    );
    expect(() => createApiClient(testTable, { apiKey, baseUrl: 'nope' })).toThrow(
      /`baseUrl` to be an absolute http\(s\) URL, got `nope`/,
    );
    expect(() => createApiClient(testTable, { apiKey, baseUrl: 'https://h/v1?x=1' })).toThrow(/without query/);
    expect(() => createApiClient(testTable, { apiKey, timeoutMs: 0 })).toThrow(
      'Expected `timeoutMs` to be an integer from 1 to 600000, got `0`',
    );
    expect(() => createApiClient(testTable, { apiKey, maxRetries: 1.5 })).toThrow('`maxRetries`');
    // Settings swapped by mistake (the key given as the address) must not print the key.
    expect(() => createApiClient(testTable, { apiKey, baseUrl: apiKey })).toThrow(/got `svc_live_\[redacted\]`/);
    const withSpace = 'svc_live_secret value';
    expect(() => createApiClient(testTable, { apiKey: withSpace })).toThrow(/`apiKey`/);
    try {
      createApiClient(testTable, { apiKey: withSpace });
    } catch (e) {
      expect(String(e)).not.toContain('secret value');
    }
  });
});
