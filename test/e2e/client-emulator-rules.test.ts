import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allEndpoints } from '../../src/api/index.js';
import {
  ApiError,
  ConflictError,
  InvalidInputError,
  isApiError,
  NotFoundError,
  PermissionError,
  SendFailedError,
  ValidationFailedError,
} from '../../src/client/index.js';
import { findFirst, methodOf, rejection, startE2e, type E2e } from './harness.js';
import type { SyntheticRouteId } from '../../src/emulator/platform/synthetic.js';

// One emulator seeded with 260 generated chats, so the lists pass 250 rows.
let t: E2e;
beforeAll(async () => {
  t = await startE2e({ seed: 260 });
});
afterAll(async () => {
  await t.close();
});

/** An active photo-social conversation: no service window and no provider outcome by number, so a send is delivered. */
const photoConversation = () =>
  findFirst(
    t.client.conversations.list({ channel: 'photo_social', status: 'active' }),
    'active photo_social conversation',
  );

describe('pagination through the client', () => {
  it('walks 250+ conversations with for await while new ones arrive: no repeats, none of the original rows skipped', async () => {
    const before = new Set<string>();
    let pages = 0;
    for await (const page of t.client.conversations.list({ limit: 50 }).pages()) {
      pages++;
      for (const c of page.data) before.add(c.id);
    }
    expect(before.size).toBeGreaterThan(250);
    expect(pages).toBeGreaterThan(5);

    const seen: string[] = [];
    const arrived: string[] = [];
    for await (const c of t.client.conversations.list({ limit: 50 })) {
      seen.push(c.id);
      // A new customer writes in every 40 rows, so rows arrive in the middle of pages and between them.
      if (seen.length % 40 === 0) {
        const created = await t.control('inbound', {
          channel: 'phone',
          from: { handle: `+1303555${1000 + seen.length}` },
          content: 'new here',
        });
        arrived.push((created.conversation as { id: string }).id);
      }
    }
    expect(arrived.length).toBeGreaterThan(5);
    expect(new Set(seen).size).toBe(seen.length);
    expect(new Set(seen)).toEqual(before);
    // The arrivals are newer than the walk's start: the next walk starts with them, newest first.
    const head = await t.client.conversations.list({ limit: arrived.length });
    expect(head.data.map((c) => c.id)).toEqual([...arrived].reverse());
  });
});

describe('idempotent sends through the client', () => {
  it('replays the stored result for the same Idempotency-Key: idempotentReplayed, the same message, nothing sent twice', async () => {
    const conversation = await photoConversation();
    const input = {
      conversation_id: conversation.id,
      content: `e2e replay ${Date.now()}`,
      idempotencyKey: `e2e-replay-${Date.now()}`,
    };
    const first = await t.client.messages.send(input).withResponse();
    const again = await t.client.messages.send(input).withResponse();
    expect(first.response).toMatchObject({
      status: 201,
      idempotentReplayed: false,
      idempotencyKey: input.idempotencyKey,
    });
    expect(again.response).toMatchObject({
      status: 201,
      idempotentReplayed: true,
      idempotencyKey: input.idempotencyKey,
    });
    expect(again.data.id).toBe(first.data.id);
    const history = await t.client.conversations.listMessages({ id: conversation.id, limit: 2 });
    expect(history.data.filter((m) => m.content === input.content)).toHaveLength(1);
    // The same key with another body is refused.
    const reused = await rejection(t.client.messages.send({ ...input, content: 'something else' }));
    expect(reused).toBeInstanceOf(ConflictError);
    expect(reused).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  it('generates a fresh key per call when the caller gives none, so two calls send two messages', async () => {
    const conversation = await photoConversation();
    const a = await t.client.conversations.sendMessage({ id: conversation.id, content: 'twice' }).withResponse();
    const b = await t.client.conversations.sendMessage({ id: conversation.id, content: 'twice' }).withResponse();
    expect(a.response.idempotencyKey).not.toBeNull();
    expect(b.response.idempotencyKey).not.toBe(a.response.idempotencyKey);
    expect(b.response.idempotentReplayed).toBe(false);
    expect(b.data.id).not.toBe(a.data.id);
  });
});

describe('conflicts and provider failures through the client', () => {
  it('answers a stale If-Match with ConflictError VERSION_CONFLICT and keeps the winning write', async () => {
    const ticket = await findFirst(t.client.tickets.list({ status: 'open' }), 'open ticket');
    const { response } = await t.client.tickets.get({ id: ticket.id }).withResponse();
    const etag = response.etag ?? undefined;
    expect(etag).toBe(`"${ticket.version}"`);
    await t.client.tickets.update({ id: ticket.id, assignee: 'agent_first', ifMatch: etag });
    const error = await rejection(t.client.tickets.update({ id: ticket.id, assignee: 'agent_second', ifMatch: etag }));
    expect(error).toBeInstanceOf(ConflictError);
    expect(isApiError(error, 'VERSION_CONFLICT')).toBe(true);
    expect(error).toMatchObject({ status: 409 });
    expect(await t.client.tickets.get({ id: ticket.id })).toMatchObject({
      assignee: 'agent_first',
      version: ticket.version + 1,
    });
  });

  it('answers a send the provider rejects (recipient ending 0001) with SendFailedError, provider code 131026', async () => {
    const contact = await findFirst(
      t.client.contacts.list({ limit: 100 }),
      'contact whose number ends 0001',
      (c) => c.phone?.endsWith('0001') ?? false,
    );
    const error = await rejection(
      t.client.messages.send({ contact_id: contact.id, channel: 'phone', content: 'Your order shipped' }),
    );
    expect(error).toBeInstanceOf(SendFailedError);
    expect(error).toMatchObject({ status: 422, code: 'SEND_FAILED', providerErrorCode: '131026' });
    // What the code means, from the same service.
    expect((await t.client.developer.explainError({ code: '131026' })).code).toBe('131026');
  });
});

describe('test keys through the client', () => {
  it('gets a synthetic 201 on a send route: marked test, stored nowhere', async () => {
    expect(t.testClient.isTestKey).toBe(true);
    const conversation = await photoConversation();
    const { data, response } = await t.testClient.messages
      .send({ conversation_id: conversation.id, content: 'synthetic' })
      .withResponse();
    expect(response.status).toBe(201);
    expect(data).toMatchObject({ test: true, content: 'synthetic' });
    expect(await rejection(t.client.messages.get({ id: data.id }))).toBeInstanceOf(NotFoundError);
    const reply = await t.testClient.conversations.sendMessage({ id: conversation.id, content: 'synthetic reply' });
    expect(reply.test).toBe(true);
    const latest = await t.client.conversations.listMessages({ id: conversation.id, limit: 5 });
    expect(latest.data.map((m) => m.content)).not.toContain('synthetic reply');
  });

  it('gets a synthetic 201 that passes the contract on every route the table marks test-key synthetic', async () => {
    const conversation = await photoConversation();
    // Typed by the table's flags: a route newly marked synthetic fails to compile until it has an input here.
    const inputs: Record<string, object> = {
      'messages.send': { conversation_id: conversation.id, content: 'synthetic' },
      'conversations.sendMessage': { id: conversation.id, content: 'synthetic' },
      'campaigns.send': { id: 'cmp_e2e' },
      'automations.trigger': { id: 'aut_e2e', conversation_id: conversation.id },
      'comments.reply': { id: 'cmt_e2e', content: 'Thanks!' },
    } satisfies { [Id in SyntheticRouteId]: object };
    const synthetic = allEndpoints().filter((e) => e.def.testKeySynthetic);
    expect(synthetic.map((e) => e.id).sort()).toEqual(Object.keys(inputs).sort());
    for (const entry of synthetic) {
      const { data, response } = await methodOf(
        t.testClient,
        entry.group,
        entry.name,
      )(inputs[entry.id]!).withResponse();
      expect([entry.id, response.status]).toEqual([entry.id, 201]);
      expect(data).toMatchObject({ test: true });
    }
  });

  it('is refused everywhere else with PermissionError TEST_KEY_NOT_ALLOWED', async () => {
    for (const call of [
      () => t.testClient.contacts.list(),
      () => t.testClient.tickets.update({ id: 'tkt_any', status: 'closed' }),
      () => t.testClient.keys.list(),
    ]) {
      const error = await rejection(call());
      expect(error).toBeInstanceOf(PermissionError);
      expect(error).toMatchObject({ status: 403, code: 'TEST_KEY_NOT_ALLOWED' });
    }
  });
});

describe('send rules through the client', () => {
  it('answers the account rules with ConflictError ACCOUNT_REQUIRED and ACCOUNT_MISMATCH', async () => {
    const phoneAccounts = (c: { identities: { channel: string; integration_id: string }[] }) => [
      ...new Set(c.identities.filter((i) => i.channel === 'phone').map((i) => i.integration_id)),
    ];
    const twin = await findFirst(
      t.client.contacts.list({ limit: 100 }),
      'contact on two phone numbers',
      (c) => phoneAccounts(c).length > 1,
    );
    const [first, second] = phoneAccounts(twin);
    const required = await rejection(
      t.client.messages.send({ contact_id: twin.id, channel: 'phone', content: 'which line?' }),
    );
    expect(required).toBeInstanceOf(ConflictError);
    expect(required).toMatchObject({ status: 409, code: 'ACCOUNT_REQUIRED' });
    const chosen = await t.client.messages.send({
      contact_id: twin.id,
      channel: 'phone',
      integration_id: first,
      content: 'from the first line',
    });
    expect(chosen.integration_id).toBe(first);
    const mismatch = await rejection(
      t.client.conversations.sendMessage({
        id: chosen.conversation_id,
        integration_id: second,
        content: 'from the other line',
      }),
    );
    expect(mismatch).toBeInstanceOf(ConflictError);
    expect(mismatch).toMatchObject({ code: 'ACCOUNT_MISMATCH' });
  });

  it('refuses free text outside the 24-hour window and to an opted-out contact (422, nothing sent)', async () => {
    const closed = await findFirst(
      t.client.conversations.list({ channel: 'phone', limit: 100 }),
      'phone conversation with a closed window',
      (c) => c.service_window_expires_at !== null && Date.parse(c.service_window_expires_at) < t.emulator.clock.now(),
    );
    const outside = await rejection(t.client.conversations.sendMessage({ id: closed.id, content: 'still there?' }));
    expect(outside).toBeInstanceOf(ApiError);
    expect(outside).toMatchObject({ status: 422, code: 'OUTSIDE_SERVICE_WINDOW' });
    const optedOut = await findFirst(
      t.client.contacts.list({ limit: 100 }),
      'opted-out contact with a phone',
      (c) => c.opted_out && c.phone !== null,
    );
    const refused = await rejection(
      t.client.messages.send({ contact_id: optedOut.id, channel: 'phone', content: 'sale!' }),
    );
    expect(refused).toMatchObject({ status: 422, code: 'CONTACT_OPTED_OUT' });
    expect(refused).not.toBeInstanceOf(SendFailedError);
  });

  it('moves a send to delivered, and a throttled one (number ending 0002) to failed 131049, as the emulator clock runs', async () => {
    const delivered = await t.client.conversations.sendMessage({
      id: (await photoConversation()).id,
      content: 'on its way',
    });
    const throttledContact = await findFirst(
      t.client.contacts.list({ limit: 100 }),
      'contact whose number ends 0002',
      (c) => c.phone?.endsWith('0002') ?? false,
    );
    const throttled = await t.client.messages.send({
      contact_id: throttledContact.id,
      channel: 'phone',
      content: 'spring sale',
    });
    await t.control('clock', { advance_seconds: 1 });
    expect(await t.client.messages.get({ id: delivered.id })).toMatchObject({
      delivery_status: 'delivered',
      error: null,
    });
    expect(await t.client.messages.get({ id: throttled.id })).toMatchObject({
      delivery_status: 'failed',
      error: { code: '131049' },
    });
  });
});

describe('the wire through the client', () => {
  it('works with an /api/v1 base address and echoes a caller X-Request-ID', async () => {
    const viaApi = t.clientFor(t.emulator.adminKey, { baseUrl: `${t.origin}/api/v1` });
    const { data, response } = await viaApi.contacts
      .list({ limit: 2 }, { headers: { 'X-Request-ID': 'e2e-correlation-1' } })
      .withResponse();
    expect(data.data).toHaveLength(2);
    expect(response.requestId).toBe('e2e-correlation-1');
    expect(response.rateLimit?.remaining).toBeLessThan(response.rateLimit?.limit ?? 0);
  });

  it('refuses a query parameter the route does not declare before sending, naming the one it likely meant', async () => {
    const typo = await rejection(t.client.templates.list({ stauts: 'approved' } as never));
    expect(typo).toBeInstanceOf(InvalidInputError);
    expect((typo as InvalidInputError).issues).toEqual([
      { path: 'stauts', message: 'unknown query parameter; did you mean status?' },
    ]);
  });

  it('words an unknown key of the input as the emulator words it in its 400, hint included', async () => {
    /** The client's issue for `key` (nothing sent) and the emulator's detail for it (sent raw). */
    const bothSay = async (
      name: 'create' | 'list',
      input: Record<string, unknown>,
      key: string,
      raw: () => Promise<{ status: number; body: unknown }>,
    ) => {
      const refused = await rejection(methodOf(t.client, 'templates', name)(input));
      expect(refused).toBeInstanceOf(InvalidInputError);
      const answer = await raw();
      expect(answer.status).toBe(400);
      const details = (answer.body as { error: { details: { path: string; message: string }[] } }).error.details;
      return {
        client: (refused as InvalidInputError).issues.filter((i) => i.path === key),
        service: details.filter((d) => d.path === key).map(({ path, message }) => ({ path, message })),
      };
    };
    const draft = { name: 'welcome_back', category: 'UTILITY', body: 'Hi {{1}}' };
    for (const [key, value] of [
      ['langauge', 'en'],
      ['zzz', 1],
    ] as const) {
      const input = { ...draft, [key]: value };
      const { client, service } = await bothSay('create', input, key, () => t.api('POST', '/v1/templates', input));
      expect(client).toHaveLength(1);
      expect(client).toEqual(service);
    }
    const query = await bothSay('list', { stauts: 'approved' }, 'stauts', () =>
      t.api('GET', '/v1/templates?stauts=approved'),
    );
    expect(query.client).toHaveLength(1);
    expect(query.client).toEqual(query.service);
  });

  it('refuses a field a message send has not inside media before sending, naming it', async () => {
    const conversation = await photoConversation();
    const media = { type: 'image', url: 'https://example.com/a.png', alt: 'a cat' };
    const nested = await rejection(
      t.client.conversations.sendMessage({ id: conversation.id, content: 'hi', media } as never),
    );
    expect(nested).toBeInstanceOf(InvalidInputError);
    expect((nested as InvalidInputError).issues).toEqual([
      { path: 'media.alt', message: 'unknown field; expected one of type, url, caption, filename' },
    ]);
  });

  it('surfaces a cursor the service did not issue as ValidationFailedError naming the field', async () => {
    const error = await rejection(t.client.conversations.list({ cursor: 'not-a-cursor' }));
    expect(error).toBeInstanceOf(ValidationFailedError);
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect((error as ValidationFailedError).fields.map((f) => f.path)).toEqual(['cursor']);
  });
});
