import { isApiError } from 'convo-kit/client';
import { chooseAssignee, type RoutingFacts } from './choose-assignee.js';
import { type Channel, type Ticket } from 'convo-kit/resources';
import { etag, type RouteOutcome, type RoutingContext } from './routing-context.js';

/** Re-read-and-decide rounds after VERSION_CONFLICT before giving up (someone keeps editing it). */
export const MAX_ROUTING_ATTEMPTS = 5;
const RECENT_MESSAGES = 20; // keywords are looked for in the customer's latest words, not the whole history

/**
 * Routes one ticket: reads it, decides from the rules, and PATCHes with `If-Match` so a ticket
 * someone changed meanwhile is never overwritten; on VERSION_CONFLICT it reads again and decides again.
 * Running it twice for the same ticket is harmless: an assigned ticket is left alone.
 */
export async function routeTicket(ctx: RoutingContext, ticketId: string): Promise<RouteOutcome> {
  for (let attempt = 1; attempt <= MAX_ROUTING_ATTEMPTS; attempt += 1) {
    const ticket = await ctx.client.tickets.get({ id: ticketId });
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
    const decision = chooseAssignee(await routingFacts(ctx, ticket), ctx.config, ctx.book);
    if (!decision)
      return report(ctx, {
        ticketId,
        result: 'unassigned',
        reason: 'no rule has an assignee with room',
        attempts: attempt,
      });
    try {
      const updated = await ctx.client.tickets.update({
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

async function routingFacts(ctx: RoutingContext, ticket: Ticket): Promise<RoutingFacts> {
  let channel: Channel | null = null;
  const words = [ticket.subject];
  if (ticket.conversation_id) {
    const conversation = await ctx.client.conversations.get({ id: ticket.conversation_id });
    channel = conversation.channel;
    const { data } = await ctx.client.conversations.listMessages({
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
