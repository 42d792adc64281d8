import { afterEach, describe, expect, it } from 'vitest';
import { as, cleanup, emulator } from './platform-harness.js';
import { SEED_IDS, subscribe } from './resources-harness.js';

afterEach(cleanup);

async function newTicket(e: Awaited<ReturnType<typeof emulator>>, priority = 'high') {
  const res = await as(e)
    .post('/_emulator/handoff')
    .send({ conversation_id: SEED_IDS.delivered.conversation, priority });
  expect(res.status).toBe(201);
  return res.body as { id: string; version: number; sla_due_at: string; created_at: string };
}

describe('handoff control', () => {
  it('creates an open ticket with an SLA from its priority and fires ticket.created', async () => {
    const e = await emulator();
    const hooks = await subscribe(e);
    const ticket = await newTicket(e, 'urgent');
    expect(ticket).toMatchObject({
      kind: 'handoff',
      status: 'open',
      priority: 'urgent',
      version: 1,
      conversation_id: SEED_IDS.delivered.conversation,
      contact_id: SEED_IDS.delivered.contact,
    });
    expect(Date.parse(ticket.sla_due_at) - Date.parse(ticket.created_at)).toBe(3_600_000);
    expect(await hooks.named('ticket.created')).toEqual([expect.objectContaining({ id: ticket.id })]);
  });

  it('refuses an unknown conversation (404) and a wrong kind (400)', async () => {
    const e = await emulator();
    expect((await as(e).post('/_emulator/handoff').send({ conversation_id: 'conv_nope' })).status).toBe(404);
    expect(
      (await as(e).post('/_emulator/handoff').send({ conversation_id: SEED_IDS.delivered.conversation, kind: 'other' }))
        .status,
    ).toBe(400);
  });
});

describe('ticket concurrency', () => {
  it('answers ETag "<version>" and applies a PATCH whose If-Match is current', async () => {
    const e = await emulator();
    const { id } = await newTicket(e);
    const got = await as(e).get(`/v1/tickets/${id}`);
    expect(got.headers.etag).toBe('"1"');
    const patched = await as(e)
      .patch(`/v1/tickets/${id}`)
      .set('If-Match', got.headers.etag!)
      .send({ status: 'pending' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ status: 'pending', version: 2 });
    expect(patched.headers.etag).toBe('"2"');
  });

  it('is 409 VERSION_CONFLICT when If-Match is stale, and changes nothing', async () => {
    const e = await emulator();
    const { id } = await newTicket(e);
    await as(e).patch(`/v1/tickets/${id}`).send({ priority: 'low' }).expect(200);
    const stale = await as(e).patch(`/v1/tickets/${id}`).set('If-Match', '"1"').send({ status: 'closed' });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({
      code: 'VERSION_CONFLICT',
      details: [{ current_version: 2, if_match: '"1"' }],
    });
    expect((await as(e).get(`/v1/tickets/${id}`)).body).toMatchObject({ status: 'open', version: 2 });
  });

  it('applies without If-Match (last write wins) and refuses a malformed one (400)', async () => {
    const e = await emulator();
    const { id } = await newTicket(e);
    await as(e).patch(`/v1/tickets/${id}`).send({ assignee: 'agent_a' }).expect(200);
    const last = await as(e).patch(`/v1/tickets/${id}`).send({ assignee: 'agent_b' });
    expect(last.body).toMatchObject({ assignee: 'agent_b', version: 3 });
    expect((await as(e).patch(`/v1/tickets/${id}`).set('If-Match', 'three').send({ status: 'open' })).status).toBe(400);
  });

  it('reads If-Match as RFC 9110 lists it: * matches any version, a list any member, a weak tag by its version', async () => {
    const e = await emulator();
    const { id } = await newTicket(e);
    const patch = (ifMatch: string, body: object) =>
      as(e).patch(`/v1/tickets/${id}`).set('If-Match', ifMatch).send(body);
    expect((await patch('*', { priority: 'low' })).body).toMatchObject({ priority: 'low', version: 2 });
    expect((await patch('"1", "2"', { priority: 'normal' })).body).toMatchObject({ priority: 'normal', version: 3 });
    expect((await patch('W/"3"', { status: 'pending' })).body).toMatchObject({ status: 'pending', version: 4 });
    // Empty list elements are ignored; a comma inside a tag is part of the tag.
    expect((await patch(',"1,4" ,, W/"4",', { assignee: 'agent_a' })).body).toMatchObject({ version: 5 });

    const stale = await patch('"1", W/"2", "x"', { status: 'closed' });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({
      code: 'VERSION_CONFLICT',
      details: [{ current_version: 5, if_match: '"1", W/"2", "x"' }],
    });
    expect(stale.body.error.message).toContain('is at version 5, not any of "1", W/"2", "x": fetch it again');
    expect((await as(e).get(`/v1/tickets/${id}`)).body).toMatchObject({ status: 'pending', version: 5 });
  });

  it('refuses a malformed If-Match with 400 naming the header, and changes nothing', async () => {
    const e = await emulator();
    const { id } = await newTicket(e);
    for (const malformed of [
      '3',
      'W/3',
      '"3',
      '"1" "2"',
      '*, "1"',
      'w/"1"',
      '"a"b"',
      ',',
      '"' + '1'.repeat(1100) + '"',
    ]) {
      const res = await as(e).patch(`/v1/tickets/${id}`).set('If-Match', malformed).send({ status: 'closed' });
      expect([malformed, res.status, res.body.error?.code], malformed).toEqual([malformed, 400, 'VALIDATION_FAILED']);
      expect(res.body.error.details).toEqual([expect.objectContaining({ path: 'if-match', in: 'headers' })]);
    }
    expect((await as(e).get(`/v1/tickets/${id}`)).body).toMatchObject({ status: 'open', version: 1 });
  });

  it('keeps the version when a PATCH changes nothing, and 404s an unknown ticket', async () => {
    const e = await emulator();
    const { id } = await newTicket(e);
    expect((await as(e).patch(`/v1/tickets/${id}`).send({ status: 'open', priority: 'high' })).body.version).toBe(1);
    expect((await as(e).patch('/v1/tickets/tkt_nope').send({ status: 'open' })).status).toBe(404);
  });
});

describe('ticket events', () => {
  it('fires ticket.updated with changed_fields on every change, plus ticket.assigned and ticket.closed', async () => {
    const e = await emulator();
    const { id } = await newTicket(e);
    const hooks = await subscribe(e);
    await as(e).patch(`/v1/tickets/${id}`).send({ priority: 'urgent' }).expect(200);
    await as(e).patch(`/v1/tickets/${id}`).send({ assignee: 'agent_ana' }).expect(200);
    await as(e)
      .patch(`/v1/tickets/${id}`)
      .send({ status: 'resolved', resolution: { reason: 'refunded' } })
      .expect(200);
    await as(e).patch(`/v1/tickets/${id}`).send({ status: 'closed' }).expect(200);
    // Deliveries are not ordered (docs/webhook-deliveries.md): compared by version, then event name.
    const seen = (await hooks.events())
      .map((x) => [x.event as string, x.data.changed_fields ?? null, x.data.version as number] as const)
      .sort((a, b) => a[2] - b[2] || a[0].localeCompare(b[0]));
    expect(seen).toEqual([
      ['ticket.updated', ['priority'], 2],
      ['ticket.assigned', null, 3],
      ['ticket.updated', ['assignee'], 3],
      ['ticket.closed', null, 4],
      ['ticket.updated', ['status', 'resolution'], 4],
      // resolved -> closed is a change, but the ticket was already done: no second ticket.closed
      ['ticket.updated', ['status'], 5],
    ]);
    expect((await as(e).get(`/v1/tickets/${id}`)).body.resolution).toEqual({ reason: 'refunded', note: null });
  });
});

describe('ticket lists', () => {
  it('filters by status, priority, kind, assignee and conversation', async () => {
    const e = await emulator();
    const { id } = await newTicket(e, 'low');
    await as(e).patch(`/v1/tickets/${id}`).send({ assignee: 'agent_zed', status: 'on_hold' }).expect(200);
    const byAssignee = await as(e).get('/v1/tickets?assignee=agent_zed');
    expect(byAssignee.body.data.map((t: { id: string }) => t.id)).toEqual([id]);
    const combined = await as(e).get(
      `/v1/tickets?status=on_hold&priority=low&kind=handoff&conversation_id=${SEED_IDS.delivered.conversation}`,
    );
    expect(combined.body.data.map((t: { id: string }) => t.id)).toEqual([id]);
    const open = await as(e).get('/v1/tickets?status=open&limit=100');
    expect(open.body.data.length).toBeGreaterThan(0);
    expect(open.body.data.every((t: { status: string }) => t.status === 'open')).toBe(true);
    expect((await as(e).get('/v1/tickets?status=done')).status).toBe(400);
  });
});
