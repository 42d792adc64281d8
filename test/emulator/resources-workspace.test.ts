import { afterEach, describe, expect, it } from 'vitest';
import { as, cleanup, emulator } from './platform-harness.js';
import { inbound, send, SEED_IDS, subscribe } from './resources-harness.js';

afterEach(cleanup);

type Row = { id: string };

describe('conversations', () => {
  it('filters by status, channel and assignee', async () => {
    const e = await emulator({ seed: 40 });
    for (const [query, check] of [
      ['status=closed', (c: Record<string, unknown>) => c.status === 'closed'],
      ['channel=photo_social', (c: Record<string, unknown>) => c.channel === 'photo_social'],
      ['assignee=agent_ben', (c: Record<string, unknown>) => c.assignee === 'agent_ben'],
    ] as const) {
      const res = await as(e).get(`/v1/conversations?${query}&limit=100`);
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeGreaterThan(0);
      expect(res.body.data.every(check)).toBe(true);
    }
    expect((await as(e).get('/v1/conversations?channel=sms')).body.error.code).toBe('INVALID_PLATFORM');
    expect((await as(e).get('/v1/conversations/conv_nope')).status).toBe(404);
  });

  it('updates and fires conversation.assigned (with the previous assignee) and conversation.closed', async () => {
    const e = await emulator();
    const hooks = await subscribe(e);
    const id = SEED_IDS.twoAccounts.conversations[0];
    const res = await as(e)
      .patch(`/v1/conversations/${id}`)
      .send({ assignee: 'agent_ben', tags: ['vip'], routing: { team: 'sales' } });
    expect(res.body).toMatchObject({
      assignee: 'agent_ben',
      tags: ['vip'],
      routing: { team: 'sales', queue: 'phone' },
    });
    await as(e).patch(`/v1/conversations/${id}`).send({ status: 'closed' }).expect(200);
    await as(e).patch(`/v1/conversations/${id}`).send({ status: 'closed' }).expect(200);
    const seen = await hooks.events();
    expect(seen.map((x) => x.event).sort()).toEqual(['conversation.assigned', 'conversation.closed']);
    const byName = (name: string) => seen.find((x) => x.event === name)!;
    expect(byName('conversation.assigned').data).toMatchObject({
      previous_assignee: 'agent_ana',
      assignee: 'agent_ben',
      assigned_by: 'agent',
    });
    expect(byName('conversation.closed').data).toMatchObject({ status: 'closed', closed_by: 'agent' });
    expect((await as(e).patch(`/v1/conversations/${id}`).send({ status: 'archived' })).status).toBe(400);
  });

  it('moves the contact, its leads and its conversations together when a conversation changes stage, and refuses an unknown stage', async () => {
    const e = await emulator();
    const hooks = await subscribe(e);
    const { contact, conversation } = SEED_IDS.delivered;
    const unknown = await as(e).patch(`/v1/conversations/${conversation}`).send({ stage: 'negotiating' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'stage', in: 'body' }] });
    expect((await as(e).get(`/v1/conversations/${conversation}`)).body.stage).not.toBe('negotiating');
    const moved = await as(e).patch(`/v1/conversations/${conversation}`).send({ stage: 'won' });
    expect(moved.status).toBe(200);
    expect(moved.body.stage).toBe('won');
    expect((await as(e).get(`/v1/contacts/${contact}`)).body.lead_stage).toBe('won');
    const leads = (await as(e).get('/v1/pipeline/leads?limit=100')).body.data as {
      contact_id: string;
      stage: string;
    }[];
    expect(leads.filter((l) => l.contact_id === contact).map((l) => l.stage)).not.toContain('proposal');
    expect(await hooks.named('contact.updated')).toEqual([
      expect.objectContaining({ id: contact, lead_stage: 'won', changed_fields: ['lead_stage'], source: 'api' }),
    ]);
    expect((await as(e).patch('/v1/conversations/conv_nope').send({ stage: 'won' })).status).toBe(404);
  });

  it('walks 250+ conversations with cursors without repeats or gaps while new ones arrive', async () => {
    const e = await emulator({ seed: 250 });
    const before = new Set<string>();
    let cursor: string | null = null;
    do {
      const res = await as(e).get(`/v1/conversations?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      for (const c of res.body.data as Row[]) before.add(c.id);
      cursor = res.body.pagination.next_cursor;
    } while (cursor);
    expect(before.size).toBeGreaterThanOrEqual(250);
    const seen: string[] = [];
    let page = await as(e).get('/v1/conversations?limit=100');
    for (let n = 0; ; n++) {
      seen.push(...(page.body.data as Row[]).map((c) => c.id));
      // A new customer writes in between pages: it is newer than the walk's start, so it is not in it.
      await inbound(e, {
        channel: 'phone',
        from: { handle: `+1303555${String(1000 + n)}` },
        content: 'new here',
      }).expect(201);
      if (!page.body.pagination.has_more) break;
      page = await as(e).get(`/v1/conversations?limit=100&cursor=${page.body.pagination.next_cursor}`);
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(new Set(seen)).toEqual(before);
    expect((await as(e).get('/v1/conversations?cursor=not-a-cursor')).status).toBe(400);
  });

  it('lists a conversation’s messages newest first, and 404s an unknown conversation', async () => {
    const e = await emulator();
    const sent = await send(e, `/v1/conversations/${SEED_IDS.delivered.conversation}/messages`, { content: 'latest' });
    const history = await as(e).get(`/v1/conversations/${SEED_IDS.delivered.conversation}/messages?limit=2`);
    expect(history.body.data[0].id).toBe(sent.body.id);
    expect(history.body.pagination.has_more).toBe(true);
    expect((await as(e).get('/v1/conversations/conv_nope/messages')).status).toBe(404);
  });
});

describe('inbound control', () => {
  it('creates contact and conversation for a new customer, opens the window and fires conversation.created and message.received', async () => {
    const e = await emulator();
    const hooks = await subscribe(e);
    const res = await inbound(e, {
      channel: 'phone',
      from: { handle: '+4915112345678', name: 'Lena' },
      content: 'Hallo',
    });
    expect(res.status).toBe(201);
    expect(res.body.contact).toMatchObject({ name: 'Lena', phone: '+4915112345678', opted_out: false });
    expect(res.body.conversation).toMatchObject({
      integration_id: SEED_IDS.phoneMain,
      status: 'active',
      last_message_preview: 'Hallo',
    });
    expect(Date.parse(res.body.conversation.service_window_expires_at) - e.clock.now()).toBeGreaterThan(
      23 * 3600 * 1000,
    );
    // Deliveries are not ordered (docs/webhook-deliveries.md): two in flight per endpoint may land either way.
    expect((await hooks.events()).map((x) => x.event).sort()).toEqual(['conversation.created', 'message.received']);
    expect((await hooks.named('conversation.created'))[0]).toMatchObject({
      origin: 'inbound',
      id: res.body.conversation.id,
    });
    const again = await inbound(e, { channel: 'phone', from: { handle: '+4915112345678' }, content: 'Noch da?' });
    expect(again.body.conversation.id).toBe(res.body.conversation.id);
    expect(again.body.contact.id).toBe(res.body.contact.id);
  });

  it('fires contact.opted_out on STOP (and sends are refused), then contact.opted_in on START', async () => {
    const e = await emulator();
    const hooks = await subscribe(e);
    await inbound(e, { channel: 'phone', from: { handle: '+14155550125' }, content: ' stop ' }).expect(201);
    const refused = await send(e, `/v1/conversations/${SEED_IDS.delivered.conversation}/messages`, { content: 'hi' });
    expect(refused.body.error.code).toBe('CONTACT_OPTED_OUT');
    await inbound(e, { channel: 'phone', from: { handle: '+14155550125' }, content: 'UNSUBSCRIBE' }).expect(201);
    await inbound(e, { channel: 'phone', from: { handle: '+14155550125' }, content: 'START' }).expect(201);
    const optEvents = (await hooks.events()).filter((x) => x.event.startsWith('contact.'));
    // Sorted by name: deliveries are not ordered (docs/webhook-deliveries.md).
    expect(optEvents.map((x) => [x.event, x.data.keyword, x.data.opted_out]).sort()).toEqual([
      ['contact.opted_in', 'START', false],
      ['contact.opted_out', 'STOP', true],
    ]);
    expect(
      (await send(e, `/v1/conversations/${SEED_IDS.delivered.conversation}/messages`, { content: 'welcome back' }))
        .status,
    ).toBe(201);
  });

  it('keeps a sandbox 0003 contact’s record and its sends in step: opted out from the first contact, sendable after START', async () => {
    const e = await emulator();
    const hooks = await subscribe(e);
    const fresh = await inbound(e, { channel: 'phone', from: { handle: '+13035550003' }, content: 'hi' }).expect(201);
    expect(fresh.body.contact.opted_out).toBe(true);
    expect((await as(e).get(`/v1/contacts/${fresh.body.contact.id}`)).body.opted_out).toBe(true);
    const { contact, conversation } = SEED_IDS.optedOut;
    const seeded = (await as(e).get(`/v1/contacts/${contact}`)).body;
    await inbound(e, { channel: 'phone', from: { handle: seeded.phone }, content: 'START' }).expect(201);
    expect((await as(e).get(`/v1/contacts/${contact}`)).body.opted_out).toBe(false);
    const sent = await send(e, `/v1/conversations/${conversation}/messages`, { content: 'welcome back' });
    expect([sent.status, sent.body.error?.code]).toEqual([201, undefined]);
    expect((await hooks.named('contact.opted_in')).map((c) => c.id)).toEqual([contact]);
  });

  it('applies the provider sandbox to new numbers too, and refuses bad input', async () => {
    const e = await emulator();
    const res = await inbound(e, { channel: 'phone', from: { handle: '+13035550003' }, content: 'hi' }).expect(201);
    const refused = await send(e, `/v1/conversations/${res.body.conversation.id}/messages`, { content: 'hello' });
    expect(refused.body.error.code).toBe('CONTACT_OPTED_OUT');
    expect((await inbound(e, { channel: 'sms', from: { handle: '+13035550009' }, content: 'x' })).body.error.code).toBe(
      'INVALID_PLATFORM',
    );
    expect((await inbound(e, { channel: 'phone', from: { handle: 'not-a-phone' }, content: 'x' })).status).toBe(400);
    expect(
      (
        await inbound(e, {
          channel: 'phone',
          integration_id: SEED_IDS.photo,
          from: { handle: '+13035550009' },
          content: 'x',
        })
      ).status,
    ).toBe(409);
    expect(
      (
        await as(e, e.testKey)
          .post('/_emulator/inbound')
          .send({ channel: 'phone', from: { handle: '+13035550009' }, content: 'x' })
      ).status,
    ).toBe(403);
  });
});

describe('contacts and pipeline', () => {
  it('updates a contact and fires contact.updated with changed_fields and source api', async () => {
    const e = await emulator();
    const hooks = await subscribe(e);
    const res = await as(e)
      .patch(`/v1/contacts/${SEED_IDS.delivered.contact}`)
      .send({ name: 'Dana D.', email: 'dana@shop.example', lead_stage: 'proposal' });
    expect(res.body).toMatchObject({ name: 'Dana D.', email: 'dana@shop.example', lead_stage: 'proposal' });
    expect(await hooks.named('contact.updated')).toEqual([
      expect.objectContaining({ changed_fields: ['name', 'email'], source: 'api' }),
    ]);
    const bad = await as(e).patch(`/v1/contacts/${SEED_IDS.delivered.contact}`).send({ lead_stage: 'negotiating' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe('lead_stage');
    expect((await as(e).patch(`/v1/contacts/${SEED_IDS.delivered.contact}`).send({ email: 'nope' })).status).toBe(400);
  });

  it('lists stages in board order and moves a lead, keeping its contact in step', async () => {
    const e = await emulator();
    const stages = await as(e).get('/v1/pipeline/stages');
    expect(stages.body.data.map((s: Row) => s.id)).toEqual([
      'new',
      'contacted',
      'qualified',
      'proposal',
      'won',
      'lost',
    ]);
    const lead = (await as(e).get('/v1/pipeline/leads?limit=1')).body.data[0];
    const hooks = await subscribe(e);
    const target = lead.stage === 'won' ? 'lost' : 'won';
    const moved = await as(e).patch(`/v1/pipeline/leads/${lead.id}/stage`).send({ stage: target });
    expect(moved.body).toMatchObject({ id: lead.id, stage: target });
    expect((await as(e).get(`/v1/contacts/${lead.contact_id}`)).body.lead_stage).toBe(target);
    expect((await as(e).get(`/v1/conversations/${lead.conversation_id}`)).body.stage).toBe(target);
    expect(await hooks.named('contact.updated')).toEqual([expect.objectContaining({ changed_fields: ['lead_stage'] })]);
    const unknown = await as(e).patch(`/v1/pipeline/leads/${lead.id}/stage`).send({ stage: 'negotiating' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('VALIDATION_FAILED');
    const updated = await as(e).patch(`/v1/pipeline/leads/${lead.id}`).send({ value: 1200, notes: 'annual plan' });
    expect(updated.body).toMatchObject({ value: 1200, notes: 'annual plan', stage: target });
    expect((await as(e).get(`/v1/pipeline/leads?stage=${target}`)).body.data.some((l: Row) => l.id === lead.id)).toBe(
      true,
    );
    expect((await as(e).get('/v1/pipeline/leads/lead_nope')).status).toBe(404);
  });
});

describe('channels', () => {
  it('lists accounts with group and AI status, switches AI per account and assigns or unassigns a group', async () => {
    const e = await emulator();
    const list = await as(e).get('/v1/channels');
    expect(list.body.data).toHaveLength(4);
    expect(list.body.data.filter((a: { channel: string }) => a.channel === 'phone')).toHaveLength(2);
    const photo = await as(e)
      .patch(`/v1/channels/${SEED_IDS.photo}`)
      .send({ ai_comment_replies_enabled: false, group_id: SEED_IDS.group });
    expect(photo.body).toMatchObject({ ai_comment_replies_enabled: false, group_id: SEED_IDS.group });
    expect((await as(e).patch(`/v1/channels/${SEED_IDS.photo}`).send({ group_id: null })).body.group_id).toBeNull();
    const phone = await as(e).patch(`/v1/channels/${SEED_IDS.phoneMain}`).send({ ai_enabled: false });
    expect(phone.body.ai_enabled).toBe(false);
    const comments = await as(e).patch(`/v1/channels/${SEED_IDS.phoneMain}`).send({ ai_comment_replies_enabled: true });
    expect(comments.status).toBe(422);
    expect(comments.body.error.code).toBe('INVALID_PLATFORM');
    expect((await as(e).patch(`/v1/channels/${SEED_IDS.phoneMain}`).send({ group_id: 'grp_nope' })).status).toBe(404);
    expect((await as(e).patch('/v1/channels/int_nope').send({ ai_enabled: true })).status).toBe(404);
    expect(
      (await as(e).get(`/v1/channels?group_id=${SEED_IDS.group}`)).body.data.map(
        (a: { integration_id: string }) => a.integration_id,
      ),
    ).toEqual([SEED_IDS.page, SEED_IDS.phoneSupport]);
  });

  it('creates a connect session with a browser handoff URL and expiry, refusing an unknown channel', async () => {
    const e = await emulator();
    const res = await as(e)
      .post('/v1/channels/connect-sessions')
      .send({ channel: 'social_page', return_url: 'https://app.example/done' });
    expect(res.status).toBe(201);
    expect(res.body.url).toMatch(/^https:\/\/.+cs_/);
    expect(Date.parse(res.body.expires_at) - Date.parse(res.body.created_at)).toBe(15 * 60 * 1000);
    expect((await as(e).post('/v1/channels/connect-sessions').send({ channel: 'fax' })).body.error.code).toBe(
      'INVALID_PLATFORM',
    );
    // A channel that is missing or not a string names no channel: the body fails its schema (400), not 422.
    for (const body of [{}, { channel: 5 }, { channel: null }]) {
      const res = await as(e).post('/v1/channels/connect-sessions').send(body);
      expect([res.status, res.body.error.code, res.body.error.details[0].path]).toEqual([
        400,
        'VALIDATION_FAILED',
        'channel',
      ]);
    }
  });
  it('keeps only the connect sessions whose link is still good, so the table stays bounded', async () => {
    const e = await emulator();
    const stored = () =>
      (e.db.prepare("SELECT count(*) AS n FROM docs WHERE kind = 'connect_sessions'").get() as { n: number }).n;
    const create = () => as(e).post('/v1/channels/connect-sessions').send({ channel: 'phone' }).expect(201);
    for (let i = 0; i < 3; i++) await create();
    expect(stored()).toBe(3);
    await as(e)
      .post('/_emulator/clock')
      .send({ advance_seconds: 15 * 60 })
      .expect(200);
    await create();
    expect(stored()).toBe(1);
  });
});

describe('template review control', () => {
  it('changes the status and fires template.status_update; unknown template is 404', async () => {
    const e = await emulator();
    const hooks = await subscribe(e);
    const res = await as(e)
      .post(`/_emulator/templates/${SEED_IDS.templates.pending}/review`)
      .send({ status: 'rejected', reason: 'Promotional content in a utility slot' });
    expect(res.status).toBe(200);
    expect(await hooks.named('template.status_update')).toEqual([
      expect.objectContaining({
        template_id: SEED_IDS.templates.pending,
        template_name: 'spring_sale',
        status: 'rejected',
        category: 'MARKETING',
        reason: 'Promotional content in a utility slot',
      }),
    ]);
    expect((await as(e).post('/_emulator/templates/tpl_nope/review').send({ status: 'approved' })).status).toBe(404);
    expect(
      (await as(e).post(`/_emulator/templates/${SEED_IDS.templates.pending}/review`).send({ status: 'great' })).status,
    ).toBe(400);
  });
});

describe('reset', () => {
  it('returns to the seeded workspace', async () => {
    const e = await emulator();
    await as(e).patch(`/v1/contacts/${SEED_IDS.delivered.contact}`).send({ name: 'Changed' }).expect(200);
    await inbound(e, { channel: 'phone', from: { handle: '+13035550777' }, content: 'hi' }).expect(201);
    const count = async () => (await as(e).get('/v1/contacts?limit=100')).body.data.length as number;
    const grown = await count();
    await as(e).post('/_emulator/reset').expect(200);
    expect(await count()).toBe(grown - 1);
    expect((await as(e).get(`/v1/contacts/${SEED_IDS.delivered.contact}`)).body.name).toBe('Dana Delivered');
  });
});
