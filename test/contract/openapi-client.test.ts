import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openapi, openapiPath } from '../../src/api/index.js';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { compileClient } from '../support/compile-strict.js';

/**
 * A client generated from our document by the tools people use (openapi-typescript + openapi-fetch),
 * compiled under `tsc --strict`, then called against a real emulator on a real port.
 */

/** The generated client's program: typed calls, and field reads that only compile when the types are right. */
const CLIENT_SOURCE = `
import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

export function routes(baseUrl: string, apiKey: string) {
  const client = createClient<paths>({ baseUrl, headers: { authorization: \`Bearer \${apiKey}\` } });
  return {
    status: async () => {
      const { data, response } = await client.GET('/v1/status');
      return { status: response.status, healthy: data?.status, headers: response.headers };
    },
    ticketPage: async (cursor?: string) => {
      const { data, error, response } = await client.GET('/v1/tickets', { params: { query: { limit: 2, cursor } } });
      const ids: string[] = (data?.data ?? []).map((t) => t.id);
      const next: string | null | undefined = data?.pagination.next_cursor;
      return { ids, next, code: error?.error.code, headers: response.headers };
    },
    ticket: async (id: string) => {
      const { data, error, response } = await client.GET('/v1/tickets/{id}', { params: { path: { id } } });
      const version: number | undefined = data?.version;
      return { version, code: error?.error.code, status: response.status, headers: response.headers };
    },
    createWebhook: async (url: string) => {
      const { data, error, response } = await client.POST('/v1/webhooks', {
        body: { url, events: ['ticket.*'], description: 'generated client' },
      });
      const secret: string | undefined = data?.secret;
      return { id: data?.id, secret, code: error?.error.code, status: response.status, headers: response.headers };
    },
    signPayload: async (webhook_id: string, payload: unknown) => {
      const { data, error, response } = await client.POST('/v1/webhooks/sign-payload', {
        body: { webhook_id, payload, timestamp: 1700000000 },
      });
      const signature: string | undefined = data?.signature;
      return { signature, raw: data?.raw_body, code: error?.error.code, status: response.status, headers: response.headers };
    },
    send: async (conversation_id: string, key: string) => {
      const { data, error, response } = await client.POST('/v1/messages', {
        params: { header: { 'Idempotency-Key': key } },
        body: { conversation_id, content: 'Your order shipped' },
      });
      return { id: data?.id, code: error?.error.code, status: response.status, headers: response.headers };
    },
  };
}
`;

/** Calls the types must refuse: each line compiles only if the error it expects is there. */
const REFUSED_SOURCE = `
import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:1' });
// @ts-expect-error webhook_id is required
void client.POST('/v1/webhooks/sign-payload', { body: { payload: {} } });
// @ts-expect-error no such route
void client.GET('/v1/ticket');
// @ts-expect-error the path id is required
void client.GET('/v1/tickets/{id}', {});
// @ts-expect-error limit is a number
void client.GET('/v1/tickets', { params: { query: { limit: 'two' } } });
// @ts-expect-error the Idempotency-Key header is required
void client.POST('/v1/messages', { body: { conversation_id: 'conv_1', content: 'hi' } });
`;

const doc = openapi();
let dir: string;
let emulator: Emulator;
let origin: string;
let diagnostics: string[];
/** What one call of the compiled client returns (see CLIENT_SOURCE). */
interface Answer {
  status?: number;
  code?: string;
  headers: Headers;
  [field: string]: unknown;
}
/** The compiled client's calls, as CLIENT_SOURCE declares them. */
interface Routes {
  status(): Promise<Answer>;
  ticketPage(cursor?: string): Promise<Answer & { ids: string[]; next?: string | null }>;
  ticket(id: string): Promise<Answer>;
  createWebhook(url: string): Promise<Answer>;
  signPayload(webhookId: string, payload: unknown): Promise<Answer>;
  send(conversationId: string, key: string): Promise<Answer>;
}
let routes: (baseUrl: string, apiKey: string) => Routes;

/** The names of the headers the document marks required on this answer, missing from it. */
function missingRequiredHeaders(method: string, path: string, status: number, headers: Headers): string[] {
  const op = doc.paths[openapiPath(path)]![method.toLowerCase()] as {
    responses: Record<string, { headers?: Record<string, { $ref?: string; required?: boolean }> }>;
  };
  const response = op.responses[String(status)];
  if (!response) return [`(no documented ${status} response)`];
  const components = (doc.components as { headers: Record<string, { required?: boolean }> }).headers;
  return Object.entries(response.headers ?? {})
    .filter(([, h]) => (h.$ref ? components[h.$ref.split('/').pop()!]! : h).required === true)
    .map(([name]) => name)
    .filter((name) => !headers.has(name));
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'convo-kit-openapi-client-'));
  // The generated program resolves openapi-fetch as a user's project would: from a node_modules beside it.
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(join(dir, 'schema.d.ts'), astToString(await openapiTS(structuredClone(doc) as never)));
  const compiled = await compileClient<{ routes: typeof routes }>(dir, {
    client: CLIENT_SOURCE,
    refused: REFUSED_SOURCE,
  });
  diagnostics = compiled.diagnostics;
  if (compiled.program) routes = compiled.program.routes;
  emulator = await createEmulator({ logger: pino({ level: 'silent' }) });
  ({ url: origin } = await emulator.listen(0, '127.0.0.1'));
}, 240_000);

afterAll(async () => {
  await emulator?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a client generated by openapi-typescript + openapi-fetch', () => {
  it('compiles under tsc --strict, and its types refuse wrong calls', () => {
    expect(diagnostics).toEqual([]);
  });

  it('calls GET /v1/status without a key', async () => {
    const answer = await routes(origin, '').status();
    expect(answer).toMatchObject({ status: 200, healthy: 'ok' });
    expect(missingRequiredHeaders('GET', '/v1/status', 200, answer.headers)).toEqual([]);
  });

  it('walks a list with the cursor it is given', async () => {
    const client = routes(origin, emulator.adminKey);
    const first = await client.ticketPage();
    expect(first.ids).toHaveLength(2);
    expect(typeof first.next).toBe('string');
    expect(missingRequiredHeaders('GET', '/v1/tickets', 200, first.headers)).toEqual([]);
    const second = await client.ticketPage(first.next ?? undefined);
    expect(second.ids).toHaveLength(2);
    expect(second.ids).not.toEqual(expect.arrayContaining(first.ids));
    const bad = await client.ticketPage('not-a-cursor');
    expect(bad.code).toBe('VALIDATION_FAILED');
  });

  it('reads a ticket with its documented ETag, and gets the envelope for an unknown id', async () => {
    const client = routes(origin, emulator.adminKey);
    const [id] = (await client.ticketPage()).ids;
    const ticket = await client.ticket(id);
    expect(ticket.status).toBe(200);
    expect(ticket.headers.get('etag')).toBe(`"${String(ticket.version)}"`);
    expect(missingRequiredHeaders('GET', '/v1/tickets/:id', 200, ticket.headers)).toEqual([]);
    const missing = await client.ticket('tkt_nope');
    expect(missing).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(missingRequiredHeaders('GET', '/v1/tickets/:id', 404, missing.headers)).toEqual([]);
  });

  it('registers a webhook with a POST body, and signs any JSON payload with it', async () => {
    const client = routes(origin, emulator.adminKey);
    const created = await client.createWebhook('http://127.0.0.1:9/hooks');
    expect(created.status).toBe(201);
    expect(created.secret).toMatch(/^whsec_/);
    expect(missingRequiredHeaders('POST', '/v1/webhooks', 201, created.headers)).toEqual([]);
    for (const payload of [{ nested: [1, { a: null }] }, 'raw text', 42, null]) {
      const signed = await client.signPayload(String(created.id), payload);
      expect(signed.status, JSON.stringify(payload)).toBe(200);
      expect(signed.signature).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(signed.raw).toBe(typeof payload === 'string' ? payload : JSON.stringify(payload));
    }
    const unknown = await client.signPayload('wh_nope', {});
    expect(unknown).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('sends with an Idempotency-Key, and a replay carries Idempotent-Replayed', async () => {
    const client = routes(origin, emulator.adminKey);
    const first = await client.send('conv_delivered', 'generated-client-1');
    expect(first.status).toBe(201);
    expect(missingRequiredHeaders('POST', '/v1/messages', 201, first.headers)).toEqual([]);
    const again = await client.send('conv_delivered', 'generated-client-1');
    expect(again).toMatchObject({ status: 201, id: first.id });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('gets 401 in the envelope without a key, with the headers the document requires there', async () => {
    const answer = await routes(origin, 'svc_live_wrong').ticket('tkt_1');
    expect(answer).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    expect(missingRequiredHeaders('GET', '/v1/tickets/:id', 401, answer.headers)).toEqual([]);
    expect(answer.headers.has('x-ratelimit-limit')).toBe(false);
  });
});
