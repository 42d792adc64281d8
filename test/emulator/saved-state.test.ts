import type { ServerResponse } from 'node:http';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { WebhookEndpointCreated } from '../../src/resources/index.js';
import { verify } from '../../src/signature/index.js';
import { COLLECTION_SCHEMAS } from '../../src/emulator/saved-state/collection-schemas.js';
import { RESOURCE_COLLECTIONS } from '../../src/emulator/state/stores.js';
import type { StateDocument } from '../../src/emulator/saved-state/state-document.js';
import { SEED_IDS } from '../../src/emulator/seed.js';
import type { Emulator } from '../../src/emulator/index.js';
import { closeServer, listen, replyEndpoint } from '../e2e/reply-harness.js';
import { as, cleanup, emulator, frozen, receiver } from './platform-harness.js';

afterEach(cleanup);

const STATE_KEY = 'correct horse battery staple';
const withKey = { 'X-Emulator-State-Key': STATE_KEY };

async function stateOf(e: Emulator, headers: Record<string, string> = withKey) {
  const res = await as(e).get('/_emulator/state').set(headers);
  expect(res.status).toBe(200);
  return res;
}

/** A workspace that holds more than the seed: a key and a webhook made through the API, a message, a delivery. */
async function busy(e: Emulator) {
  const hooks = await receiver();
  const key = await as(e)
    .post('/v1/keys')
    .send({ label: 'backend', scopes: ['contacts:read'], kind: 'live' })
    .expect(201);
  const hook = WebhookEndpointCreated.parse(
    (
      await as(e)
        .post('/v1/webhooks')
        .send({ url: hooks.url, events: ['message.received'] })
        .expect(201)
    ).body,
  );
  await as(e)
    .post('/_emulator/inbound')
    .send({ channel: 'phone', from: { handle: '+14155550100' }, content: 'hello' })
    .expect(201);
  await e.dispatcher.idle();
  return { hooks, key: key.body.key as string, hook };
}

describe('GET and PUT /_emulator/state', () => {
  it('round-trips: GET, PUT of that document, GET again answers the same document', async () => {
    const e = await emulator({ now: frozen });
    const { key, hook } = await busy(e);
    const first = await stateOf(e);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.body.format_version).toBe(1);
    expect(first.body.collections.webhook_endpoints).toHaveLength(1);
    // Write-only stays write-only: neither the key's value nor the signing secret is in the document.
    expect(first.text).not.toContain(key);
    expect(first.text).not.toContain(hook.secret);
    const put = await as(e).put('/_emulator/state').set(withKey).send(first.body);
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ imported: true, deliveries: 1 });
    const second = await stateOf(e);
    expect(unsealed(second.body)).toEqual(unsealed(first.body));
    expect(second.body.clock).toEqual(first.body.clock);
  });

  it('carries keys, webhook secrets, deliveries and the clock into a fresh emulator', async () => {
    const from = await emulator();
    const { key, hook } = await busy(from);
    await as(from).post('/_emulator/clock').send({ advance_seconds: 7200 }).expect(200);
    const exported = await stateOf(from);
    const to = await emulator();
    expect((await as(to, key).get('/v1/contacts')).status).toBe(401);
    await as(to).put('/_emulator/state').set(withKey).send(exported.body).expect(200);
    // The time goes on from the export's, not from the real clock.
    expect(Math.abs(to.clock.now() - Date.parse(exported.body.clock.now))).toBeLessThan(60_000);
    expect((await as(to, key).get('/v1/contacts')).status).toBe(200);
    // The same secret signs: a new event reaches the receiver signed so that the registration's secret verifies it.
    const hooks = await receiver();
    await as(to)
      .put('/_emulator/state')
      .set(withKey)
      .send(await retarget(exported.body, hooks.url))
      .expect(200);
    await as(to)
      .post('/_emulator/inbound')
      .send({ channel: 'phone', from: { handle: '+14155550101' }, content: 'again' })
      .expect(201);
    await to.dispatcher.idle();
    const last = hooks.received.at(-1)!;
    const verified = await verify({
      body: last.body,
      signature: last.headers['x-service-signature'] as string,
      timestamp: last.headers['x-service-timestamp'] as string,
      secrets: [hook.secret],
    });
    expect(verified.timestamp).toBeGreaterThan(0);
    expect((await as(to).get(`/v1/webhooks/${hook.id}/deliveries`)).body.data.length).toBeGreaterThanOrEqual(2);
  });

  it('leaves secrets out without a state key, and refuses to import a document without them', async () => {
    const e = await emulator({ now: frozen });
    await busy(e);
    const keyless = await stateOf(e, {});
    expect(keyless.body.secrets).toBeNull();
    expect(keyless.body.collections.webhook_endpoints[0].sealed_secret).toBe('(left out)');
    const res = await as(e).put('/_emulator/state').send(keyless.body);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0]).toMatchObject({
      path: 'collections.webhook_endpoints.0.sealed_secret',
      in: 'body',
    });
    expect(res.body.error.message).toContain('CONVO_KIT_STATE_KEY');
  });

  it('refuses a document sealed with another key, or one given without its key, naming the field', async () => {
    const e = await emulator({ now: frozen });
    await busy(e);
    const before = await stateOf(e);
    const wrong = await as(e)
      .put('/_emulator/state')
      .set({ 'X-Emulator-State-Key': 'another passphrase entirely' })
      .send(before.body);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details[0].path).toBe('collections.webhook_endpoints.0.sealed_secret');
    const none = await as(e).put('/_emulator/state').send(before.body);
    expect(none.status).toBe(400);
    expect(none.body.error.details[0].path).toBe('secrets');
    const short = await as(e).get('/_emulator/state').set({ 'X-Emulator-State-Key': 'short' });
    expect(short.status).toBe(400);
    expect(short.body.error.message).not.toContain('short');
  });

  const breakages: [string, (doc: StateDocument) => void, string][] = [
    ['a newer format version', (d) => (d.format_version = 2 as 1), 'format_version'],
    ['another kind of file', (d) => (d.format = 'firebase-export' as StateDocument['format']), 'format'],
    ['an unknown top-level field', (d) => Object.assign(d, { extra: true }), 'extra'],
    ['a clock that is no time', (d) => (d.clock.now = 'yesterday'), 'clock.now'],
    [
      'a message of no known direction',
      (d) => (d.collections.messages![0]!.direction = 'sideways'),
      'collections.messages.0.direction',
    ],
    ['a contact without its id', (d) => delete d.collections.contacts![1]!.id, 'collections.contacts.1.id'],
    ['an id twice', (d) => (d.collections.tickets![1]!.id = d.collections.tickets![0]!.id), 'collections.tickets.1.id'],
    ['a collection name that is no name', (d) => (d.collections['Robert"); DROP'] = []), 'collections.Robert"); DROP'],
    [
      'a delivery in an unknown state',
      (d) => d.deliveries.push({ ...d.deliveries[0]!, state: 'lost' as 'pending' }),
      'deliveries.1.state',
    ],
    ['a delivery twice', (d) => d.deliveries.push(d.deliveries[0]!), 'deliveries.1.id'],
    ['a key hash that is no sha256', (d) => (d.api_key_hashes[0]!.sha256 = 'abc'), 'api_key_hashes.0.sha256'],
  ];
  it.each(breakages)('refuses %s naming the field, and keeps the current state', async (_name, breakIt, path) => {
    const e = await emulator({ now: frozen });
    await busy(e);
    const before = await stateOf(e);
    const doc = structuredClone(before.body);
    breakIt(doc);
    const res = await as(e).put('/_emulator/state').set(withKey).send(doc);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    expect(unsealed((await stateOf(e)).body)).toEqual(unsealed(before.body));
  });

  it('refuses a body that is no document: none, not JSON, not an object', async () => {
    const e = await emulator();
    expect((await as(e).put('/_emulator/state').set('content-type', 'application/json')).status).toBe(400);
    const text = await as(e).put('/_emulator/state').set('content-type', 'application/json').send('{"format":');
    expect(text.status).toBe(400);
    const list = await as(e).put('/_emulator/state').send([1, 2]);
    expect(list.status).toBe(400);
    expect(
      (await request(e.app).get(`/v1/contacts/${SEED_IDS.delivered.contact}`).auth(e.adminKey, { type: 'bearer' }))
        .status,
    ).toBe(200);
  });

  it('refuses cross-site requests and non-JSON changes, as the console does; needs the admin key', async () => {
    const e = await emulator();
    const doc = (await stateOf(e)).body;
    const crossSite = await as(e).put('/_emulator/state').set('Origin', 'http://evil.example').send(doc);
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.error.code).toBe('FORBIDDEN');
    const fetchSite = await as(e).get('/_emulator/state').set('Sec-Fetch-Site', 'cross-site');
    expect(fetchSite.status).toBe(403);
    const plain = await as(e)
      .put('/_emulator/state')
      .set('content-type', 'text/plain; x=application/json')
      .send(JSON.stringify(doc));
    expect(plain.status).toBe(415);
    expect((await request(e.app).get('/_emulator/state')).status).toBe(401);
    expect((await as(e, e.testKey).get('/_emulator/state')).status).toBe(403);
    // The same origin's page (the console) is let through.
    const host = '127.0.0.1:4010';
    const same = await as(e)
      .get('/_emulator/state')
      .set({ Host: host, Origin: `http://${host}` });
    expect(same.status).toBe(200);
  });

  it('asks again, after an import, an AI reply that was waiting for the custom reply endpoint at export', async () => {
    const SECRET = 'rsec_saved_state_5e1d';
    const answer = await replyEndpoint(SECRET, () => 'We open at 9.');
    let hold = true;
    const held: ServerResponse[] = [];
    const { server, url } = await listen((req, res) =>
      hold ? held.push(res) : answer.server.emit('request', req, res),
    );
    try {
      const from = await emulator();
      const account = SEED_IDS.phoneSupport;
      await as(from).patch(`/v1/channels/${account}`).send({ ai_enabled: true }).expect(200);
      await as(from).patch(`/v1/channels/groups/${SEED_IDS.group}`).send({ ai_enabled: true }).expect(200);
      await as(from)
        .put(`/v1/channels/${account}/providers/custom_reply`)
        .send({ enabled: true, config: { url: `${url}/reply`, timeout_ms: 10_000 }, secret: SECRET })
        .expect(200);
      const inbound = await as(from)
        .post('/_emulator/inbound')
        .send({
          channel: 'phone',
          integration_id: account,
          from: { handle: '+14155550620' },
          content: 'When do you open?',
        })
        .expect(201);
      await waitFor(() => held.length === 1);
      const saved = await stateOf(from);
      expect(saved.body.collections.ai_reply_jobs).toEqual([
        expect.objectContaining({ task: 'reply', message_id: inbound.body.message.id }),
      ]);
      expect(saved.text).not.toContain(SECRET);
      await from.close();
      hold = false;
      const to = await emulator();
      await as(to).put('/_emulator/state').set(withKey).send(saved.body).expect(200);
      await waitFor(async () => (await aiMessages(to, inbound.body.conversation.id)).length === 1);
      expect(await aiMessages(to, inbound.body.conversation.id)).toEqual(['We open at 9.']);
      await to.aiReplies.idle();
      expect((await stateOf(to)).body.collections.ai_reply_jobs ?? []).toEqual([]);
    } finally {
      held.forEach((res) => res.destroy());
      await closeServer(server);
      await closeServer(answer.server);
    }
  });

  it('keeps scheduled work on the clock: a campaign due an hour after the export starts an hour after the import', async () => {
    const from = await emulator();
    const scheduledAt = new Date(from.clock.now() + 3600_000).toISOString();
    const created = await as(from)
      .post('/v1/campaigns')
      .send({
        name: 'Later',
        template_id: SEED_IDS.templates.approved,
        audience: { contact_ids: [SEED_IDS.delivered.contact] },
        variables: { '1': 'A-1', '2': 'today' },
        scheduled_at: scheduledAt,
      })
      .expect(201);
    const saved = await stateOf(from);
    const to = await emulator();
    await as(to).put('/_emulator/state').set(withKey).send(saved.body).expect(200);
    await as(to).post('/_emulator/clock').send({ advance_seconds: 1800 }).expect(200);
    expect((await as(to).get(`/v1/campaigns/${created.body.id}`)).body.status).toBe('scheduled');
    await as(to).post('/_emulator/clock').send({ advance_seconds: 1800 }).expect(200);
    await waitFor(async () => (await as(to).get(`/v1/campaigns/${created.body.id}`)).body.status === 'sent');
    expect((await as(to).get(`/v1/campaigns/${created.body.id}`)).body.stats).toMatchObject({ recipients: 1, sent: 1 });
  });

  it('has a schema for every resource store', () => {
    const kinds = Object.values(RESOURCE_COLLECTIONS).map((c) => c.kind);
    expect(kinds.filter((kind) => !(kind in COLLECTION_SCHEMAS))).toEqual([]);
  });
});

async function aiMessages(e: Emulator, conversationId: string): Promise<string[]> {
  const res = await as(e).get(`/v1/conversations/${conversationId}/messages?limit=100`);
  return (res.body.data as { source: string; content: string }[])
    .filter((m) => m.source === 'ai')
    .map((m) => m.content);
}

/** Polls `check` until it holds (bounded: the machine may be loaded). */
async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('Timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Sealing draws a new salt and IVs each time: the document without them, to compare two exports. */
function unsealed(doc: StateDocument) {
  return {
    ...doc,
    secrets: null,
    collections: {
      ...doc.collections,
      webhook_endpoints: doc.collections.webhook_endpoints!.map((h) => ({ ...h, sealed_secret: null })),
    },
  };
}

/** The document with its one webhook endpoint pointing at `url` (the receiver of this test). */
async function retarget(doc: StateDocument, url: string) {
  const copy = structuredClone(doc);
  copy.collections.webhook_endpoints![0]!.url = url;
  return copy;
}
