import { afterEach, describe, expect, it } from 'vitest';
import { type Message } from '../../src/api/schemas/message.js';
import { type Ticket } from '../../src/api/schemas/ticket.js';
import { createClient, ServerError, InvalidInputError } from '../../src/client/index.js';
import { json, type ScriptedServer, type Script, startScripted } from './scripted-server.js';

const apiKey = 'svc_live_' + 'w'.repeat(32);
const at = '2026-11-21T00:00:00Z';
let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(script: Script, options: { maxRetries?: number } = {}) {
  server = await startScripted(script);
  return { server, client: createClient({ apiKey, baseUrl: `${server.url}/v1`, backoffBaseMs: 1, ...options }) };
}

const message = (over: Partial<Message> = {}): Message => ({
  id: 'msg_1',
  conversation_id: 'conv_1',
  integration_id: 'int_1',
  channel: 'phone',
  direction: 'sent',
  content: 'hello',
  media: null,
  buttons: null,
  cta_url: null,
  delivery_status: 'sent',
  source: 'api',
  error: null,
  created_at: at,
  ...over,
});

const ticket = (version: number): Ticket => ({
  id: 'tkt_1',
  kind: 'handoff',
  status: 'resolved',
  priority: 'normal',
  assignee: null,
  conversation_id: 'conv_1',
  contact_id: 'ct_1',
  subject: 'Refund',
  sla_due_at: null,
  resolution: null,
  version,
  created_at: at,
  updated_at: at,
});

describe('the real table over the wire', () => {
  it('messages.send posts the message input with a generated Idempotency-Key and resolves to the typed message', async () => {
    const { server: srv, client } = await setup((req, res, i) =>
      i === 0 ? json(res, 503, {}) : json(res, 201, message({ content: JSON.parse(req.body).content })),
    );
    const { data, response } = await client.messages
      .send({ conversation_id: 'conv_1', content: 'hello' })
      .withResponse();
    expect(data.content).toBe('hello');
    expect(data.delivery_status).toBe('sent');
    expect(srv.seen.map((r) => [r.method, r.url])).toEqual([
      ['POST', '/v1/messages'],
      ['POST', '/v1/messages'],
    ]);
    expect(srv.seen[0]?.headers['idempotency-key']).toBe(response.idempotencyKey);
    expect(srv.seen[1]?.headers['idempotency-key']).toBe(response.idempotencyKey);
    expect(JSON.parse(srv.seen[0]?.body ?? '')).toEqual({ conversation_id: 'conv_1', content: 'hello' });
  });

  it('messages.send refuses an input breaking the spec limits, naming each field', async () => {
    const { server: srv, client } = await setup((_req, res) => json(res, 201, message()));
    const error = await client.messages
      .send({
        conversation_id: 'conv_1',
        content: '',
        media: { type: 'image', url: 'http://insecure.example/a.png' },
        buttons: ['x'.repeat(21)],
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).issues.map((i) => i.path).sort()).toEqual([
      'buttons[0]',
      'content',
      'media.url',
    ]);
    expect(srv.seen).toHaveLength(0);
  });

  it('tickets.update sends If-Match from ifMatch, and refuses a malformed one', async () => {
    const { server: srv, client } = await setup((_req, res) => json(res, 200, ticket(4), { etag: '"4"' }));
    const updated = await client.tickets.update({ id: 'tkt_1', status: 'resolved', ifMatch: '"3"' }).withResponse();
    expect(updated.data.version).toBe(4);
    expect(updated.response.etag).toBe('"4"');
    expect(srv.seen[0]).toMatchObject({ method: 'PATCH', url: '/v1/tickets/tkt_1', headers: { 'if-match': '"3"' } });
    expect(JSON.parse(srv.seen[0]?.body ?? '')).toEqual({ status: 'resolved' });
    await expect(client.tickets.update({ id: 'tkt_1', ifMatch: '3' })).rejects.toThrow(/ifMatch: expected an ETag/);
    expect(srv.seen).toHaveLength(1);
  });

  it('groups.uploadKnowledge sends multipart form data with the file', async () => {
    const { server: srv, client } = await setup((_req, res) =>
      json(res, 201, {
        entry_id: 'kn_1',
        group_id: 'grp_1',
        type: 'faq',
        title: 'FAQ',
        content: 'Q: hours?',
        source: 'upload',
        filename: 'faq.md',
        created_at: at,
      }),
    );
    const entry = await client.groups.uploadKnowledge({
      group_id: 'grp_1',
      type: 'faq',
      title: 'FAQ',
      file: new File(['Q: hours?'], 'faq.md', { type: 'text/markdown' }),
    });
    expect(entry.filename).toBe('faq.md');
    const seen = srv.seen[0];
    expect(seen?.url).toBe('/v1/channels/groups/grp_1/knowledge/files');
    expect(seen?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen?.body).toContain('name="file"; filename="faq.md"');
    expect(seen?.body).toContain('Q: hours?');
    expect(seen?.body).toMatch(/name="title"\r\n\r\nFAQ\r\n/);
  });

  it('status.get needs no key, and a degraded 503 keeps its health report on the error', async () => {
    const degraded = {
      status: 'degraded',
      dependencies: { database: 'ok', cache: 'degraded' },
      error_rate: null,
      checked_at: at,
    };
    const { server: srv, client } = await setup((_req, res) => json(res, 503, degraded), { maxRetries: 1 });
    const error = await client.status.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).body).toEqual(degraded);
    expect(srv.seen).toHaveLength(2);
    expect(srv.seen[0]?.headers.authorization).toBeUndefined();
  });
});
