import { isApiError } from 'convo-kit/client';
import { chooseAssignee, type RoutingFacts } from './choose-assignee.js';
import { type Channel, type Ticket } from 'convo-kit/resources';
import { etag, type EventEffects, type RouteOutcome, type RoutingContext } from './routing-context.js';

/** Re-read-and-decide rounds after VERSION_CONFLICT before giving up (someone keeps editing it). */
export const MAX_ROUTING_ATTEMPTS = 5;
const RECENT_MESSAGES = 20; // keywords are looked for in the customer's latest words, not the whole history

/**
 * Routes one ticket for the event that announced it: reads it, decides from the rules, and PATCHes with
 * `If-Match` so a ticket someone changed meanwhile is never overwritten; on VERSION_CONFLICT it reads again
 * and decides again. Every read, the decision and the PATCH are steps of the event (`event.client`,
 * `event.step`): a retry after a crash replays them, so the ticket is assigned once, to the assignee first
 * chosen, whatever the load book says after the restart. A PATCH the service took just before a crash, and
 * whose step was not journaled, is answered VERSION_CONFLICT on the retry (the version moved); the re-read
 * then finds the ticket assigned and leaves it.
 */
export async function routeTicket(ctx: RoutingContext, ticketId: string, event: EventEffects): Promise<RouteOutcome> {
  const { client, step } = event;
  for (let attempt = 1; attempt <= MAX_ROUTING_ATTEMPTS; attempt += 1) {
    const ticket = await client.tickets.get({ id: ticketId });
    ctx.book.track(ticket);
    if (ticket.assignee !== null)
      return report(ctx, {
        ticketId,
        result: 'skipped',
        reason: `already assigned to ${ticket.assignee}`,
        attempts: attempt,
      });
    if (ticket.status === 'resolved' || ticket.status === 'closed')
      return report(ctx, { ticketId, result: 'skipped', reason: `ticket is ${ticket.status}`, attempts: attempt });
    const facts = await routingFacts(ctx, client, ticket);
    const decision = await step(`decide ${attempt}`, () => chooseAssignee(facts, ctx.config, ctx.book));
    if (!decision)
      return report(ctx, {
        ticketId,
        result: 'unassigned',
        reason: 'no rule has an assignee with room',
        attempts: attempt,
      });
    try {
      const updated = await client.tickets.update({
        id: ticketId,
        assignee: decision.assignee,
        ...(decision.priority !== ticket.priority ? { priority: decision.priority } : {}),
        ifMatch: etag(ticket.version),
      });
      ctx.book.track(updated);
      const rule = ctx.config.rules.find((r) => r.name === decision.rule);
      if (rule) ctx.book.advance(rule.name, rule.assign, decision.assignee);
      return report(ctx, {
        ticketId,
        result: 'routed',
        assignee: decision.assignee,
        priority: updated.priority,
        rule: decision.rule,
        attempts: attempt,
      });
    } catch (error) {
      if (!isApiError(error, 'VERSION_CONFLICT')) throw error;
      // Someone changed the ticket between our read and write: read it again and decide from what it is now.
    }
  }
  return report(ctx, {
    ticketId,
    result: 'unassigned',
    reason: `still conflicting after ${MAX_ROUTING_ATTEMPTS} attempts`,
    attempts: MAX_ROUTING_ATTEMPTS,
  });
}

async function routingFacts(
  ctx: RoutingContext,
  client: EventEffects['client'],
  ticket: Ticket,
): Promise<RoutingFacts> {
  let channel: Channel | null = null;
  const words = [ticket.subject];
  if (ticket.conversation_id) {
    const conversation = await client.conversations.get({ id: ticket.conversation_id });
    channel = conversation.channel;
    const { data } = await client.conversations.listMessages({
      id: ticket.conversation_id,
      limit: RECENT_MESSAGES,
    });
    for (const message of data) if (message.direction === 'received') words.push(message.content);
  }
  return {
    kind: ticket.kind,
    priority: ticket.priority,
    channel,
    text: words.join('\n'),
    at: ctx.now?.() ?? new Date(),
  };
}

function report(ctx: RoutingContext, outcome: RouteOutcome): RouteOutcome {
  ctx.onRouted?.(outcome);
  return outcome;
}
