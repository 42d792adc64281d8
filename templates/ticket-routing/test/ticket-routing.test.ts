import { isApiError } from 'convo-kit/client';
import { directEffects, sampleEvent } from 'convo-kit/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_ROUTING_ATTEMPTS, routeTicket } from '../src/route-ticket.js';
import { routingHandlers } from '../src/routing-handlers.js';
import { type Ticket } from 'convo-kit/resources';
import { type KitClient, type RouteOutcome, type RoutingContext } from '../src/routing-context.js';
import { checkSla } from '../src/sla-watch.js';
import { type Harness, startHarness } from './emulator-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const handoff = (body: { conversation_id: string; kind?: string; priority?: string }) =>
  h!.control<Ticket>('handoff', body);

/** A client whose ticket updates lose a race: another agent edits the ticket just before each of our first `times` PATCHes. */
function racingClient(client: KitClient, times: number, edits: string[]): KitClient {
  let raced = 0;
  const update = async (...args: Parameters<KitClient['tickets']['update']>) => {
    if (raced < times) {
      raced += 1;
      const [input] = args;
      // Alternating, so each rival edit is a real change (the service bumps the version only on a change).
      const rival = await client.tickets.update({ id: input.id, priority: raced % 2 === 1 ? 'urgent' : 'high' });
      edits.push(`rival v${rival.version}`);
    }
    return client.tickets.update(...args);
  };
  return { ...client, tickets: { ...client.tickets, update: update as unknown as KitClient['tickets']['update'] } };
}

describe('ticket-routing against the emulator', () => {
  it('routes a handed-off ticket by the rules, with If-Match, when ticket.created arrives', async () => {
    h = await startHarness();
    const outcomes: RouteOutcome[] = [];
    h.app.ctx.onRouted = (o) => outcomes.push(o);
    const ticket = await handoff({ conversation_id: 'conv_delivered' });
    await h.settle();
    const routed = await h.app.ctx.client.tickets.get({ id: ticket.id });
    expect(['ana', 'ben']).toContain(routed.assignee);
    expect(routed.version).toBe(ticket.version + 1);
    expect(outcomes).toContainEqual(
      expect.objectContaining({ ticketId: ticket.id, result: 'routed', rule: 'phone handoffs', attempts: 1 }),
    );
    expect(h.app.ctx.book.openCount(routed.assignee!)).toBeGreaterThanOrEqual(1);
  });

  it('serves the delivery inspector at /_inspector: the ticket events, each with its attempts', async () => {
    h = await startHarness();
    await handoff({ conversation_id: 'conv_delivered' });
    await h.settle();
    const listed = (await (await fetch(`${h.app.inspectorUrl}/api/deliveries?event=ticket.*`)).json()) as {
      data: { id: string; event: string; status: string }[];
    };
    const created = listed.data.find((d) => d.event === 'ticket.created');
    expect(created?.status).toBe('done');
    const page = await fetch(h.app.inspectorUrl);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain(created!.id);
  });

  it('opens the inspector with INSPECTOR_TOKEN set only to requests presenting it, from this machine too', async () => {
    const token = 'a-token-for-the-proxied-inspector';
    h = await startHarness({ inspectorToken: token });
    const list = `${h.app.inspectorUrl}/api/deliveries`;
    expect((await fetch(list)).status).toBe(403);
    expect((await fetch(list, { headers: { authorization: 'Bearer not-the-token-at-all' } })).status).toBe(403);
    expect((await fetch(list, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    const page = await fetch(`${h.app.inspectorUrl}/?token=${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
  });

  it('changes nothing when every delivery arrives twice', async () => {
    h = await startHarness();
    const first = await handoff({ conversation_id: 'conv_delivered' });
    const second = await handoff({ conversation_id: 'conv_page' });
    await h.settle();
    const before = await Promise.all([first, second].map((t) => h!.app.ctx.client.tickets.get({ id: t.id })));
    const loads = h.app.ctx.book.loads();
    const { data } = await h.app.receiver.store.list({ limit: 500 });
    expect(data.map((d) => d.event)).toEqual(expect.arrayContaining(['ticket.created', 'ticket.updated']));
    await h.app.receiver.store.requeue(data.map((d) => d.id));
    await h.settle();
    const after = await Promise.all([first, second].map((t) => h!.app.ctx.client.tickets.get({ id: t.id })));
    expect(after).toEqual(before);
    expect(h.app.ctx.book.loads()).toEqual(loads);
  });

  it('on VERSION_CONFLICT reads the ticket again and decides from what it is now', async () => {
    h = await startHarness({ subscribe: false });
    const ticket = await handoff({ conversation_id: 'conv_page' });
    const edits: string[] = [];
    const outcome = await routeTicket(h.app.ctx, ticket.id, directEffects(racingClient(h.app.ctx.client, 1, edits)));
    expect(edits).toEqual(['rival v2']);
    // The rival made it urgent, so the second decision is the urgent rule's, on top of the rival's version.
    expect(outcome).toMatchObject({ result: 'routed', rule: 'urgent work', priority: 'urgent', attempts: 2 });
    const now = await h.app.ctx.client.tickets.get({ id: ticket.id });
    expect(now).toMatchObject({ priority: 'urgent', version: 3 });
    expect(['ana', 'ben', 'chloe']).toContain(now.assignee);
  });

  it('gives up, leaving the ticket as others left it, when it conflicts on every attempt', async () => {
    h = await startHarness({ subscribe: false });
    const ticket = await handoff({ conversation_id: 'conv_page' });
    const edits: string[] = [];
    const outcome = await routeTicket(
      h.app.ctx,
      ticket.id,
      directEffects(racingClient(h.app.ctx.client, Infinity, edits)),
    );
    expect(outcome).toMatchObject({ result: 'unassigned', attempts: MAX_ROUTING_ATTEMPTS });
    expect(edits).toHaveLength(MAX_ROUTING_ATTEMPTS);
    expect((await h.app.ctx.client.tickets.get({ id: ticket.id })).assignee).toBeNull();
  });

  it('the service refuses a stale If-Match with VERSION_CONFLICT (the path the router relies on)', async () => {
    h = await startHarness({ subscribe: false });
    const ticket = await handoff({ conversation_id: 'conv_page' });
    await h.app.ctx.client.tickets.update({ id: ticket.id, priority: 'high', ifMatch: `"${ticket.version}"` });
    const error = await h.app.ctx.client.tickets
      .update({ id: ticket.id, assignee: 'ana', ifMatch: `"${ticket.version}"` })
      .catch((e: unknown) => e);
    expect(isApiError(error, 'VERSION_CONFLICT')).toBe(true);
  });

  it('escalates priority as sla_due_at nears, then when it passes', async () => {
    h = await startHarness({ subscribe: false });
    const ticket = await handoff({ conversation_id: 'conv_page', priority: 'normal' });
    const due = Date.parse(ticket.sla_due_at!);
    const at = (ms: number): RoutingContext => ({ ...h!.app.ctx, now: () => new Date(ms) });

    expect((await checkSla(at(due - 2 * 60 * 60_000))).map((e) => e.ticketId)).not.toContain(ticket.id);
    expect(await checkSla(at(due - 10 * 60_000))).toContainEqual({ ticketId: ticket.id, from: 'normal', to: 'high' });
    expect(await checkSla(at(due - 5 * 60_000))).not.toContainEqual(expect.objectContaining({ ticketId: ticket.id }));
    expect(await checkSla(at(due + 60_000))).toContainEqual({ ticketId: ticket.id, from: 'high', to: 'urgent' });
    expect((await h.app.ctx.client.tickets.get({ id: ticket.id })).priority).toBe('urgent');
  });

  it("moves a conversation's unassigned tickets to the agent who takes the conversation", async () => {
    h = await startHarness({ subscribe: false });
    const ticket = await handoff({ conversation_id: 'conv_photo' });
    const conversation = await h.app.ctx.client.conversations.get({ id: 'conv_photo' });
    const event = sampleEvent('conversation.assigned', {
      data: { ...conversation, assignee: 'chloe', assigned_by: 'agent', previous_assignee: null },
    });
    await routingHandlers['conversation.assigned'](h.app.ctx, event.data, directEffects(h.app.ctx.client));
    expect((await h.app.ctx.client.tickets.get({ id: ticket.id })).assignee).toBe('chloe');
    // A rule's assignment is not a person taking the conversation: nothing moves.
    const other = await handoff({ conversation_id: 'conv_photo' });
    await routingHandlers['conversation.assigned'](
      h.app.ctx,
      { ...event.data, assignee: 'ana', assigned_by: 'routing_rule' },
      directEffects(h.app.ctx.client),
    );
    expect((await h.app.ctx.client.tickets.get({ id: other.id })).assignee).toBeNull();
  });
});
