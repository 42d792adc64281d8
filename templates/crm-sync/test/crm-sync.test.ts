import { request } from 'node:http';
import { isApiError } from 'convo-kit/client';
import { directEffects, sampleEvent, signedHeaders } from 'convo-kit/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backfill } from '../src/backfill.js';
import { editContact, moveLeadStage, OptedOutError, sendToConversation } from '../src/crm-actions.js';
import { type CrmDatabase, openCrmDatabase } from '../src/crm-database.js';
import { getContact, listActivity, listConversations } from '../src/crm-queries.js';
import { applyContact, applyConversation, isOptedOut } from '../src/crm-records.js';
import { crmSyncHandlers } from '../src/sync-handlers.js';
import { type Harness, startHarness } from './emulator-harness.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => h.close());

interface Customer {
  channel: 'phone' | 'photo_social' | 'social_page';
  from: { handle: string; name: string };
  content: string;
}

const CUSTOMERS: Customer[] = [
  { channel: 'phone', from: { handle: '+447700900123', name: 'Maya Phone' }, content: 'Hi, is my order shipped?' },
  { channel: 'photo_social', from: { handle: '@maya.photos', name: 'Maya Photo' }, content: 'Do you ship to Canada?' },
  { channel: 'social_page', from: { handle: 'page-user-42', name: 'Leo Page' }, content: 'Opening hours on Sunday?' },
];

function snapshot(db: CrmDatabase) {
  const all = (table: string) => db.prepare(`SELECT * FROM ${table} ORDER BY 1`).all();
  return {
    contacts: all('contacts'),
    optOut: all('opt_out_state'),
    conversations: all('conversations'),
    activity: all('activity'),
  };
}

async function writeIn(customer: Customer): Promise<void> {
  await h.control('inbound', customer);
}

async function sentCount(conversationId: string): Promise<number> {
  let sent = 0;
  for await (const message of h.app.ctx.client.conversations.listMessages({ id: conversationId }))
    if (message.direction === 'sent') sent += 1;
  return sent;
}

function conversationOf(handle: string) {
  const row = listConversations(h.app.ctx.db).find((c) => c.customer_handle === handle);
  if (!row) throw new Error(`no conversation for ${handle} in the CRM`);
  return row;
}

/** The status of a GET to `address` whose Host is a name of another site pointed at this machine (DNS rebinding). */
function statusAsRebound(address: string): Promise<number> {
  const url = new URL(address);
  return new Promise<number>((resolve, reject) =>
    request({ host: url.hostname, port: url.port, path: url.pathname, headers: { host: 'rebound.example' } }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    })
      .once('error', reject)
      .end(),
  );
}

describe('crm-sync against the emulator', () => {
  it('turns customers writing in on all three channels into contacts, conversations and timeline entries', async () => {
    for (const customer of CUSTOMERS) await writeIn(customer);
    await h.settle();
    for (const customer of CUSTOMERS) {
      const conversation = conversationOf(customer.from.handle);
      expect(conversation.channel).toBe(customer.channel);
      const contact = getContact(h.app.ctx.db, conversation.contact_id);
      expect(contact?.opted_out).toBe(false);
      const kinds = listActivity(h.app.ctx.db, { contactId: conversation.contact_id }).map(
        (a) => `${a.kind} ${a.summary}`,
      );
      expect(kinds).toContainEqual(
        expect.stringContaining(`message.received ${customer.channel} in: ${customer.content}`),
      );
      expect(kinds).toContainEqual(expect.stringContaining('conversation.created'));
    }
  });

  it('runs a replayed delivery again without changing anything, and takes the same event under a new id as a duplicate', async () => {
    for (const customer of CUSTOMERS) await writeIn(customer);
    await writeIn({ ...CUSTOMERS[0], content: 'STOP' });
    await h.settle();
    const before = snapshot(h.app.ctx.db);
    const { data } = await h.app.receiver.store.list({ limit: 500 });
    expect(new Set(data.map((d) => d.event))).toEqual(
      new Set(['conversation.created', 'message.received', 'contact.opted_out']),
    );
    expect(data.every((d) => d.status === 'done')).toBe(true);

    await h.app.receiver.store.requeue(data.map((d) => d.id));
    await h.settle();
    expect(snapshot(h.app.ctx.db)).toEqual(before);

    for (const summary of data) {
      const stored = await h.app.receiver.store.get(summary.id);
      const body = Buffer.from(stored!.body);
      const response = await fetch(h.app.webhookUrl, {
        method: 'POST',
        headers: signedHeaders({ secret: h.secret, body }),
        body,
      });
      // The receiver dedupes on the signed event id too, so the same event under a new delivery id is a duplicate.
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ duplicate: true });
    }
    await h.settle();
    expect(snapshot(h.app.ctx.db)).toEqual(before);
    const after = await h.app.receiver.store.list({ limit: 500 });
    expect(after.data.filter((d) => d.status === 'done')).toHaveLength(data.length);
  });

  it('opts a contact out on STOP, and then refuses to message them', async () => {
    await writeIn(CUSTOMERS[0]);
    await writeIn({ ...CUSTOMERS[0], content: 'STOP' });
    await h.settle();
    const conversation = conversationOf(CUSTOMERS[0].from.handle);
    expect(isOptedOut(h.app.ctx.db, conversation.contact_id)).toBe(true);
    expect(getContact(h.app.ctx.db, conversation.contact_id)?.opt_keyword).toBe('STOP');

    const sentBefore = await sentCount(conversation.id);
    await expect(sendToConversation(h.app.ctx, conversation.id, 'A coupon for you')).rejects.toMatchObject({
      code: 'CONTACT_OPTED_OUT',
      source: 'crm',
    });
    const response = await fetch(`${h.app.url}/api/conversations/${conversation.id}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'A coupon for you' }),
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ error: { code: 'CONTACT_OPTED_OUT' } });
    expect(await sentCount(conversation.id)).toBe(sentBefore);
  });

  it("refuses on the service's word when the opt-out has not reached the CRM yet", async () => {
    const fresh = { ...h.app.ctx, db: openCrmDatabase(`${h.dir}/fresh.db`) };
    try {
      // The CRM knows the chat, and an older copy of the contact from before they opted out.
      applyConversation(fresh.db, await fresh.client.conversations.get({ id: 'conv_opted_out' }));
      const contact = await fresh.client.contacts.get({ id: 'ct_opted_out' });
      applyContact(fresh.db, { ...contact, opted_out: false, updated_at: '2020-01-01T00:00:00Z' });
      expect(isOptedOut(fresh.db, 'ct_opted_out')).toBe(false);

      const error = await sendToConversation(fresh, 'conv_opted_out', 'Hello again').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OptedOutError);
      expect((error as OptedOutError).source).toBe('service');
      expect(isOptedOut(fresh.db, 'ct_opted_out')).toBe(true);
    } finally {
      fresh.db.close();
    }
  });

  it('never messages a contact on a number the sandbox has opted out (0003): the CRM hears it with the contact', async () => {
    // A number ending 0003: its contact is created opted out (docs/emulator.md), and the CRM syncs that before any send.
    await writeIn({ channel: 'phone', from: { handle: '+447700900003', name: 'Late Optout' }, content: 'hello' });
    await h.settle();
    const conversation = conversationOf('+447700900003');
    const error = await sendToConversation(h.app.ctx, conversation.id, 'Hi!').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OptedOutError);
    expect(error).toMatchObject({ source: 'crm', contactId: conversation.contact_id });
    expect(await sentCount(conversation.id)).toBe(0);
  });

  it('sends to a contact who has not opted out, and the timeline shows the message', async () => {
    const sent = await sendToConversation(h.app.ctx, 'conv_delivered', 'Your order is on its way');
    expect(sent).toMatchObject({ via: 'text', message: { content: 'Your order is on its way' } });
    // The provider reports `sent` a moment after accepting (off the request): wait for that event.
    await h.waitFor(() =>
      listActivity(h.app.ctx.db, { contactId: 'ct_delivered' }).some((a) => a.kind === 'message.sent'),
    );
  });

  it('sends CRM edits to the service; the contact.updated that echoes them adds no second change', async () => {
    const edited = await editContact(h.app.ctx, 'ct_delivered', { name: 'Dana Renamed', lead_stage: 'qualified' });
    expect(edited.name).toBe('Dana Renamed');
    expect((await h.app.ctx.client.contacts.get({ id: 'ct_delivered' })).name).toBe('Dana Renamed');
    await h.settle();
    expect(getContact(h.app.ctx.db, 'ct_delivered')).toMatchObject({
      name: 'Dana Renamed',
      lead_stage: 'qualified',
      updated_at: edited.updated_at,
    });
    const kinds = listActivity(h.app.ctx.db, { contactId: 'ct_delivered' }).map((a) => a.kind);
    expect(kinds.filter((k) => k === 'crm.edit')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'contact.updated')).toHaveLength(1);

    const { data: leads } = await h.app.ctx.client.pipeline.listLeads({ limit: 1 });
    const target = leads[0].stage === 'won' ? 'lost' : 'won';
    const moved = await moveLeadStage(h.app.ctx, leads[0].id, target);
    expect((await h.app.ctx.client.pipeline.getLead({ id: moved.id })).stage).toBe(target);
  });

  it('backfills every contact and conversation, page by page', async () => {
    let contacts = 0;
    for await (const _ of h.app.ctx.client.contacts.list({ limit: 100 })) contacts += 1;
    let conversations = 0;
    for await (const _ of h.app.ctx.client.conversations.list({ limit: 100 })) conversations += 1;
    expect(contacts).toBeGreaterThan(5);

    const result = await backfill(h.app.ctx, { pageSize: 5 });
    expect(result).toEqual({ contacts, conversations });
    const count = (table: string) =>
      (h.app.ctx.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    expect(count('contacts')).toBe(contacts);
    expect(count('conversations')).toBe(conversations);
    expect(isOptedOut(h.app.ctx.db, 'ct_opted_out')).toBe(true);
  });

  it('serves the delivery inspector at /_inspector: what arrived, and each delivery with its attempts', async () => {
    await writeIn(CUSTOMERS[0]!);
    await h.settle();
    const listed = (await (await fetch(`${h.app.inspectorUrl}/api/deliveries`)).json()) as {
      data: { id: string; event: string; status: string }[];
    };
    const received = listed.data.find((d) => d.event === 'message.received');
    expect(received?.status).toBe('done');
    const one = (await (await fetch(`${h.app.inspectorUrl}/api/deliveries/${received!.id}`)).json()) as {
      attempts: unknown[];
    };
    expect(one.attempts).toHaveLength(1);
    const page = await fetch(h.app.inspectorUrl);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain(received!.id);
    // A web page elsewhere that points a DNS name at this machine is refused.
    expect(await statusAsRebound(h.app.inspectorUrl)).toBe(403);
  });

  it('opens the inspector with INSPECTOR_TOKEN set only to requests presenting it, from this machine too', async () => {
    const token = 'a-token-for-the-proxied-inspector';
    await h.close();
    h = await startHarness({ inspectorToken: token });
    const list = `${h.app.inspectorUrl}/api/deliveries`;
    expect((await fetch(list)).status).toBe(403);
    expect((await fetch(list, { headers: { authorization: 'Bearer not-the-token-at-all' } })).status).toBe(403);
    expect((await fetch(list, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    const page = await fetch(`${h.app.inspectorUrl}/?token=${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
  });

  it('answers bad API input with a 4xx that names the problem', async () => {
    const patch = (body: string, type = 'application/json') =>
      fetch(`${h.app.url}/api/contacts/ct_delivered`, { method: 'PATCH', headers: { 'content-type': type }, body });
    const typo = await patch(JSON.stringify({ nmae: 'x' }));
    expect(typo.status).toBe(400);
    expect(JSON.stringify(await typo.json())).toContain('nmae');
    expect((await patch('{"name":', 'application/json')).status).toBe(400);
    expect((await patch('name=x', 'text/plain')).status).toBe(415);
    const badEmail = await patch(JSON.stringify({ email: 'not-an-email' }));
    expect(badEmail.status).toBe(400);
    expect((await fetch(`${h.app.url}/api/contacts/nobody`)).status).toBe(404);
    const { data: leads } = await h.app.ctx.client.pipeline.listLeads({ limit: 1 });
    const move = (body: unknown) =>
      fetch(`${h.app.url}/api/leads/${leads[0].id}/stage`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await move({ stage: 5 })).status).toBe(400);
    const unknownStage = await move({ stage: 'maybe-later' });
    expect(unknownStage.status).toBeGreaterThanOrEqual(400);
    expect(unknownStage.status).toBeLessThan(500);
    const moved = await move({ stage: 'contacted' });
    expect(moved.status).toBe(200);
    expect((await h.app.ctx.client.pipeline.getLead({ id: leads[0].id })).stage).toBe('contacted');
    const page = await fetch(`${h.app.url}/`);
    expect(await page.text()).toContain('<title>CRM</title>');
  });

  it("refuses another site's page, a JSON look-alike type and a DNS-rebound host name (403, 415, 403), moving nothing", async () => {
    const { data: leads } = await h.app.ctx.client.pipeline.listLeads({ limit: 1 });
    const stage = leads[0].stage;
    const move = (headers: Record<string, string>) =>
      fetch(`${h.app.url}/api/leads/${leads[0].id}/stage`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ stage: stage === 'lost' ? 'won' : 'lost' }),
      });
    // What a form or a no-cors fetch on another site can send without a CORS preflight.
    const lookAlike = 'text/plain; x=application/json';
    expect((await move({ 'content-type': lookAlike, origin: 'http://evil.example' })).status).toBe(403);
    expect((await move({ 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await move({ 'content-type': lookAlike })).status).toBe(415);
    expect(await statusAsRebound(`${h.app.url}/api/contacts`)).toBe(403);
    expect((await h.app.ctx.client.pipeline.getLead({ id: leads[0].id })).stage).toBe(stage);
  });
});

describe('the auto-reply (CRM_AUTO_REPLY), a step of the event', () => {
  const THANKS = 'Thanks for writing in: an agent will answer shortly.';

  it('answers a new customer once, and a replayed conversation.created sends nothing again', async () => {
    await h.close();
    h = await startHarness({ autoReply: THANKS });
    await writeIn(CUSTOMERS[0]);
    await h.settle();
    const conversation = conversationOf(CUSTOMERS[0].from.handle);
    const thanks = async () => {
      const found: string[] = [];
      for await (const m of h.app.ctx.client.conversations.listMessages({ id: conversation.id }))
        if (m.direction === 'sent' && m.content === THANKS) found.push(m.id);
      return found;
    };
    const first = await thanks();
    expect(first).toHaveLength(1);
    const noted = () =>
      listActivity(h.app.ctx.db, { contactId: conversation.contact_id }).filter((a) => a.kind === 'crm.auto_reply');
    expect(noted()).toHaveLength(1);

    // The same delivery runs again (as `convo-kit replay` does): its steps answer from the journal.
    const { data } = await h.app.receiver.store.list({ limit: 500 });
    const created = data.filter((d) => d.event === 'conversation.created');
    expect(created).toHaveLength(1);
    await h.app.receiver.store.requeue(created.map((d) => d.id));
    await h.settle();
    expect(await thanks()).toEqual(first);
    expect(noted()).toHaveLength(1);
    const steps = await h.app.receiver.store.deliverySteps(created[0]!.id);
    expect(steps.map((s) => s.name)).toEqual(
      expect.arrayContaining(['conversations.sendMessage:1', 'auto-reply noted']),
    );
  });

  it('stays silent for a conversation the business started', async () => {
    await h.close();
    h = await startHarness({ autoReply: THANKS });
    const sent = await h.app.ctx.client.conversations.sendMessage({
      id: 'conv_delivered',
      content: 'Your order shipped',
    });
    await h.settle();
    expect(await sentCount(sent.conversation_id)).toBeGreaterThan(0);
    for await (const m of h.app.ctx.client.conversations.listMessages({ id: sent.conversation_id }))
      expect(m.content).not.toBe(THANKS);
  });
});

describe('crm-sync handlers, called directly', () => {
  it('keeps the newest contact when an older contact.updated arrives late', async () => {
    const newer = sampleEvent('contact.updated', {
      data: { id: 'ct_late', name: 'Newer', updated_at: '2026-01-02T00:00:00.000Z' },
    });
    const older = sampleEvent('contact.updated', {
      data: { id: 'ct_late', name: 'Older', updated_at: '2026-01-01T00:00:00Z' },
    });
    await crmSyncHandlers['contact.updated'](h.app.ctx, newer.data, directEffects(h.app.ctx.client));
    await crmSyncHandlers['contact.updated'](h.app.ctx, older.data, directEffects(h.app.ctx.client));
    expect(getContact(h.app.ctx.db, 'ct_late')?.name).toBe('Newer');
  });

  it('keeps an opt-out when an older opt-in arrives after it', async () => {
    const out = sampleEvent('contact.opted_out', {
      data: { id: 'ct_flip', opted_out: true, keyword: 'STOP', updated_at: '2026-01-02T00:00:00Z' },
    });
    const staleIn = sampleEvent('contact.opted_in', {
      data: { id: 'ct_flip', opted_out: false, keyword: 'START', updated_at: '2026-01-01T00:00:00Z' },
    });
    await crmSyncHandlers['contact.opted_out'](h.app.ctx, out.data, directEffects(h.app.ctx.client));
    await crmSyncHandlers['contact.opted_in'](h.app.ctx, staleIn.data, directEffects(h.app.ctx.client));
    expect(isOptedOut(h.app.ctx.db, 'ct_flip')).toBe(true);
    await crmSyncHandlers['contact.opted_out'](h.app.ctx, out.data, directEffects(h.app.ctx.client));
    expect(
      listActivity(h.app.ctx.db, { contactId: 'ct_flip' })
        .map((a) => a.kind)
        .sort(),
    ).toEqual(['contact.opted_in', 'contact.opted_out']);
  });

  it('surfaces a service failure instead of recording a conversation it could not read', async () => {
    const created = sampleEvent('conversation.created', { data: { id: 'conv_does_not_exist' } });
    const error = await crmSyncHandlers['conversation.created'](
      h.app.ctx,
      created.data,
      directEffects(h.app.ctx.client),
    ).catch((e: unknown) => e);
    expect(isApiError(error, 'NOT_FOUND')).toBe(true);
    expect(listConversations(h.app.ctx.db)).toEqual([]);
  });
});
