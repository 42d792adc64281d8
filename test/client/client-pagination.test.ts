import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/client/index.js';
import { json, type ScriptedServer, startScripted } from './scripted-server.js';
import { testTable } from './test-table.js';

const apiKey = 'svc_live_' + 'p'.repeat(32);
let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const TOTAL = 250;

/** Serves TOTAL items in pages; cursors are opaque and awkward on purpose (+, /, =, &, %, space, non-ASCII). */
async function pagedServer(opts: { cursorFor?: (offset: number) => string } = {}) {
  const cursorFor = opts.cursorFor ?? ((offset: number) => `c+/=&?% é${offset}`);
  const issued = new Map<string, number>();
  const received: (string | null)[] = [];
  server = await startScripted((req, res) => {
    const q = new URL(req.url, 'http://x').searchParams;
    const cursor = q.get('cursor');
    received.push(cursor);
    if (cursor !== null && !issued.has(cursor))
      return json(res, 400, {
        error: { code: 'VALIDATION_FAILED', message: 'bad cursor', doc_url: '', request_id: 'r' },
      });
    const offset = cursor === null ? 0 : (issued.get(cursor) as number);
    const limit = Number(q.get('limit') ?? 25);
    const data = Array.from({ length: Math.max(0, Math.min(limit, TOTAL - offset)) }, (_, i) => ({
      id: `it_${offset + i}`,
      n: offset + i,
      status: q.get('status'),
    }));
    const hasMore = offset + data.length < TOTAL;
    const next = hasMore ? cursorFor(offset + data.length) : null;
    if (next !== null) issued.set(next, offset + data.length);
    json(res, 200, { data, pagination: { has_more: hasMore, next_cursor: next } });
  });
  return { server, received, issued };
}

describe('pagination', () => {
  it('walks all 250 items across pages, passing each cursor back exactly as received', async () => {
    const { server: srv, received, issued } = await pagedServer();
    const client = createApiClient(testTable, { apiKey, baseUrl: srv.url });
    const items = [];
    for await (const item of client.things.list({ status: 'active', limit: 100 })) items.push(item);
    expect(items.map((i) => i.n)).toEqual(Array.from({ length: TOTAL }, (_, i) => i));
    expect(received).toEqual([null, ...issued.keys()]);
    expect(srv.seen).toHaveLength(3);
    // The filters travel with every page.
    for (const req of srv.seen) {
      const q = new URL(req.url, 'http://x').searchParams;
      expect(q.get('status')).toBe('active');
      expect(q.get('limit')).toBe('100');
    }
  });

  it('awaiting gives the first page; .pages() gives every page', async () => {
    const { server: srv } = await pagedServer();
    const client = createApiClient(testTable, { apiKey, baseUrl: srv.url });
    const first = await client.things.list({ limit: 100 });
    expect(first.data).toHaveLength(100);
    expect(first.pagination.has_more).toBe(true);
    const sizes = [];
    for await (const page of client.things.list({ limit: 100 }).pages()) sizes.push(page.data.length);
    expect(sizes).toEqual([100, 100, 50]);
  });

  it('reuses the awaited first page when the same result is then iterated', async () => {
    const { server: srv } = await pagedServer();
    const client = createApiClient(testTable, { apiKey, baseUrl: srv.url });
    const list = client.things.list({ limit: 100 });
    await list;
    let count = 0;
    for await (const _ of list) count++;
    expect(count).toBe(TOTAL);
    expect(srv.seen).toHaveLength(3);
  });

  it('stops when the service repeats a cursor', async () => {
    const { server: srv } = await pagedServer({ cursorFor: () => 'same' });
    const client = createApiClient(testTable, { apiKey, baseUrl: srv.url });
    let count = 0;
    for await (const _ of client.things.list({ limit: 100 })) count++;
    // page 1 issues "same", page 2 is fetched with it and issues "same" again: the walk stops there.
    expect(count).toBe(200);
    expect(srv.seen).toHaveLength(2);
  });

  it('stops when the service hands back the cursor the walk started from', async () => {
    const { server: srv } = await pagedServer({ cursorFor: () => 'start' });
    const client = createApiClient(testTable, { apiKey, baseUrl: srv.url });
    await client.things.list({ limit: 100 }); // issues "start"
    let count = 0;
    for await (const _ of client.things.list({ limit: 100, cursor: 'start' })) count++;
    expect(count).toBe(100);
    expect(srv.seen).toHaveLength(2);
  });

  it('walks an empty first page (nothing yielded), and warns when has_more comes without a cursor', async () => {
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, warn: (_o: object, msg?: string) => void warnings.push(msg ?? '') };
    server = await startScripted((_req, res, i) =>
      json(res, 200, { data: [], pagination: { has_more: i === 1, next_cursor: null } }),
    );
    const client = createApiClient(testTable, { apiKey, baseUrl: server.url, logger });
    const items: unknown[] = [];
    for await (const item of client.things.list({})) items.push(item);
    expect(items).toEqual([]);
    expect(warnings).toEqual([]);
    for await (const item of client.things.list({})) items.push(item);
    expect(items).toEqual([]);
    expect(warnings).toEqual([expect.stringContaining('has_more without a next_cursor')]);
    expect(server.seen).toHaveLength(2);
  });

  it('stops after maxPages', async () => {
    const { server: srv } = await pagedServer();
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, warn: (_o: object, msg?: string) => void warnings.push(msg ?? '') };
    const client = createApiClient(testTable, { apiKey, baseUrl: srv.url, maxPages: 2, logger });
    let count = 0;
    for await (const _ of client.things.list({ limit: 10 })) count++;
    expect(count).toBe(20);
    expect(srv.seen).toHaveLength(2);
    expect(warnings).toEqual([expect.stringContaining('maxPages')]);
  });
});

describe('response metadata and logging', () => {
  it('exposes request id, rate limit, ETag and status with .withResponse()', async () => {
    server = await startScripted((_req, res) =>
      json(
        res,
        200,
        { id: 't', name: 'n', version: 3 },
        {
          'x-request-id': 'req_abc',
          'x-ratelimit-limit': '600',
          'x-ratelimit-remaining': '599',
          'x-ratelimit-reset': '1763683260',
          etag: '"3"',
        },
      ),
    );
    const client = createApiClient(testTable, { apiKey, baseUrl: server.url });
    const { data, response } = await client.things.get({ id: 't' }).withResponse();
    expect(data.version).toBe(3);
    expect(response).toMatchObject({
      status: 200,
      requestId: 'req_abc',
      rateLimit: { limit: 600, remaining: 599, reset: 1763683260 },
      etag: '"3"',
      idempotentReplayed: false,
      idempotencyKey: null,
      attempts: 1,
    });
    // The ETag goes straight back as ifMatch.
    await client.things.update({ id: 't', name: 'm', ifMatch: response.etag ?? undefined });
    expect(server.seen[1]?.headers['if-match']).toBe('"3"');
  });

  it('resolves a 204 to undefined', async () => {
    server = await startScripted((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    const client = createApiClient(testTable, { apiKey, baseUrl: server.url });
    await expect(client.things.remove({ id: 't' })).resolves.toBeUndefined();
    expect(server.seen[0]?.method).toBe('DELETE');
  });

  it('logs requests, retries and the test-key note, never the key', async () => {
    server = await startScripted((_req, res, i) =>
      i === 0
        ? json(res, 503, {}, { 'x-request-id': 'req_retried' })
        : json(res, 200, { id: 't', name: 'n', version: 1 }),
    );
    const lines: string[] = [];
    const record = (level: string) => (obj: object, msg?: string) =>
      void lines.push(`${level} ${msg ?? ''} ${JSON.stringify(obj)}`);
    const testKey = 'svc_test_' + 'S'.repeat(32);
    const client = createApiClient(testTable, {
      apiKey: testKey,
      baseUrl: server.url,
      backoffBaseMs: 1,
      logger: { debug: record('debug'), info: record('info'), warn: record('warn') },
    });
    expect(client.isTestKey).toBe(true);
    await client.things.get({ id: 't' });
    expect(lines.some((l) => l.startsWith('info') && l.includes('test key'))).toBe(true);
    // The retried answer's request id is logged: the caller never sees it otherwise, and support needs it.
    expect(lines.some((l) => l.startsWith('warn') && l.includes('HTTP 503') && l.includes('req_retried'))).toBe(true);
    expect(lines.some((l) => l.includes('"requestId"'))).toBe(true);
    expect(lines.join('\n')).not.toContain('SSSS');
    expect(lines.join('\n').toLowerCase()).not.toContain('bearer');
    expect(createApiClient(testTable, { apiKey, baseUrl: server.url }).isTestKey).toBe(false);
  });
});
