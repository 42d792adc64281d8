import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createClient as generateClient } from '@hey-api/openapi-ts';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openapi } from '../../src/api/index.js';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { compileStrict } from '../support/compile-strict.js';

/**
 * A client generated from our document by @hey-api/openapi-ts (its own fetch client and SDK, no runtime
 * package of ours), compiled under `tsc --strict`, then called against a real emulator on a real port.
 * The program names the document's component types (`Ticket`, `Message`), so it compiles only if the
 * generator turned them into named types.
 */
const CLIENT_SOURCE = `
import { createClient, createConfig } from './gen/client/index.js';
import { conversationsGet, messagesSend, ticketsGet, ticketsList, type Conversation, type Message, type Ticket } from './gen/index.js';

export function routes(baseUrl: string, apiKey: string) {
  const client = createClient(createConfig({ baseUrl, auth: () => apiKey }));
  return {
    ticketPage: async (cursor?: string) => {
      const { data, error, response } = await ticketsList({ client, query: { limit: 2, cursor } });
      const tickets: Ticket[] = data?.data ?? [];
      const next: string | null | undefined = data?.pagination.next_cursor;
      return { status: response.status, ids: tickets.map((t) => t.id), next, code: error?.error.code };
    },
    ticket: async (id: string) => {
      const { data, error, response } = await ticketsGet({ client, path: { id } });
      const ticket: Ticket | undefined = data;
      return { status: response.status, ticket, etag: response.headers.get('etag'), code: error?.error.code };
    },
    conversation: async (id: string) => {
      const { data, response } = await conversationsGet({ client, path: { id } });
      const conversation: Conversation | undefined = data;
      return { status: response.status, contactId: conversation?.contact_id };
    },
    send: async (conversation_id: string, key: string) => {
      const { data, error, response } = await messagesSend({
        client,
        headers: { 'Idempotency-Key': key },
        body: { conversation_id, content: 'Your order shipped today' },
      });
      const message: Message | undefined = data;
      return {
        status: response.status,
        id: message?.id,
        direction: message?.direction,
        replayed: response.headers.get('idempotent-replayed'),
        code: error?.error.code,
      };
    },
  };
}
`;

/** Calls the generated types must refuse: each line compiles only if the error it expects is there. */
const REFUSED_SOURCE = `
import { messagesSend, ticketsGet, ticketsList, type Ticket } from './gen/index.js';

// @ts-expect-error the Idempotency-Key header is required
void messagesSend({ body: { conversation_id: 'conv_1', content: 'hi' } });
// @ts-expect-error the path id is required
void ticketsGet({});
// @ts-expect-error limit is a number
void ticketsList({ query: { limit: 'two' } });
// @ts-expect-error a ticket's status is one of the documented ones
export const wrong: Ticket['status'] = 'lost';
`;

let dir: string;
let diagnostics: string[];
let emulator: Emulator;
let origin: string;
interface Routes {
  ticketPage(cursor?: string): Promise<{ status: number; ids: string[]; next?: string | null; code?: string }>;
  ticket(
    id: string,
  ): Promise<{ status: number; ticket?: { id: string; version: number }; etag: string | null; code?: string }>;
  conversation(id: string): Promise<{ status: number; contactId?: string }>;
  send(
    conversationId: string,
    key: string,
  ): Promise<{ status: number; id?: string; direction?: string; replayed: string | null; code?: string }>;
}
let routes: (baseUrl: string, apiKey: string) => Routes;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'convo-kit-hey-api-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  await generateClient({
    input: structuredClone(openapi()) as never,
    output: { path: join(dir, 'gen') },
    plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
    logs: { level: 'silent' },
  });
  writeFileSync(join(dir, 'client.ts'), CLIENT_SOURCE);
  writeFileSync(join(dir, 'refused.ts'), REFUSED_SOURCE);
  diagnostics = compileStrict([join(dir, 'client.ts'), join(dir, 'refused.ts')], join(dir, 'out'));
  if (diagnostics.length === 0)
    ({ routes } = (await import(pathToFileURL(join(dir, 'out', 'client.js')).href)) as { routes: typeof routes });
  emulator = await createEmulator({ logger: pino({ level: 'silent' }), checkResponses: true });
  ({ url: origin } = await emulator.listen(0, '127.0.0.1'));
}, 300_000);

afterAll(async () => {
  await emulator?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a client generated by @hey-api/openapi-ts', () => {
  it('compiles under tsc --strict with the named types, and its types refuse wrong calls', () => {
    expect(diagnostics).toEqual([]);
  });

  it('walks the ticket list with the cursor it is given, and gets the envelope for a bad one', async () => {
    const client = routes(origin, emulator.adminKey);
    const first = await client.ticketPage();
    expect(first).toMatchObject({ status: 200 });
    expect(first.ids).toHaveLength(2);
    const second = await client.ticketPage(first.next ?? undefined);
    expect(second.ids).toHaveLength(2);
    expect(second.ids).not.toEqual(expect.arrayContaining(first.ids));
    expect(await client.ticketPage('not-a-cursor')).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
  });

  it('gets one ticket with its ETag, a seeded conversation, and 404 in the envelope for an unknown id', async () => {
    const client = routes(origin, emulator.adminKey);
    const [id] = (await client.ticketPage()).ids;
    const answer = await client.ticket(id!);
    expect(answer.status).toBe(200);
    expect(answer.ticket?.id).toBe(id);
    expect(answer.etag).toBe(`"${String(answer.ticket?.version)}"`);
    expect(await client.conversation('conv_delivered')).toEqual({ status: 200, contactId: 'ct_delivered' });
    expect(await client.ticket('tkt_nope')).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('sends with an Idempotency-Key, and the same key replays the same message', async () => {
    const client = routes(origin, emulator.adminKey);
    const first = await client.send('conv_delivered', 'hey-api-send-1');
    expect(first).toMatchObject({ status: 201, direction: 'sent', replayed: null });
    const again = await client.send('conv_delivered', 'hey-api-send-1');
    expect(again).toMatchObject({ status: 201, id: first.id, replayed: 'true' });
  });

  it('is refused without a valid key, as the document says', async () => {
    expect(await routes(origin, 'svc_live_wrong').ticketPage()).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
  });
});
