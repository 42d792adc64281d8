import { isApiError } from 'convo-kit/client';
import { type EventData } from 'convo-kit/events';
import { routeTicket } from './route-ticket.js';
import { etag, type EventEffects, type RoutingContext } from './routing-context.js';

export const ROUTING_EVENTS = [
  'ticket.created',
  'ticket.updated',
  'ticket.assigned',
  'ticket.closed',
  'conversation.assigned',
] as const;
export type RoutingEvent = (typeof ROUTING_EVENTS)[number];

type Handler<N extends RoutingEvent> = (ctx: RoutingContext, data: EventData<N>, event: EventEffects) => Promise<void>;

const MAX_FOLLOWING_TICKETS = 100;

/**
 * New tickets are routed; every ticket event feeds the load book (ordered by `version`, so late or
 * repeated events change nothing); when an agent takes a conversation, its unassigned open tickets follow.
 * The service is called through the event's client, so a retried event replays its calls instead of
 * making them again (README of convo-kit, "Effects, exactly once").
 */
export const routingHandlers: { [N in RoutingEvent]: Handler<N> } = {
  'ticket.created': async (ctx, ticket, event) => {
    ctx.book.track(ticket);
    await routeTicket(ctx, ticket.id, event);
  },
  'ticket.updated': async (ctx, ticket) => void ctx.book.track(ticket),
  'ticket.assigned': async (ctx, ticket) => void ctx.book.track(ticket),
  'ticket.closed': async (ctx, ticket) => void ctx.book.track(ticket),
  'conversation.assigned': async (ctx, conversation, { client }) => {
    // Only a person taking the conversation moves its tickets; routing rules already handled those.
    if (conversation.assignee === null || conversation.assigned_by !== 'agent') return;
    if (!Object.hasOwn(ctx.config.assignees, conversation.assignee)) return;
    let seen = 0;
    // Each page is journaled as a step, and a step keeps at most 64 KiB: pages of 25 tickets stay well under it.
    for await (const ticket of client.tickets.list({ conversation_id: conversation.id, status: 'open', limit: 25 })) {
      if (++seen > MAX_FOLLOWING_TICKETS) break;
      if (ticket.assignee !== null || !ctx.book.hasRoom(conversation.assignee)) continue;
      try {
        // Named by the ticket, not by its place in this run: the load book decides which tickets get a PATCH, and
        // after a restart it may decide differently; a ticket's own step is replayed whatever the order.
        ctx.book.track(
          await client.tickets.update(
            { id: ticket.id, assignee: conversation.assignee, ifMatch: etag(ticket.version) },
            { step: `assign ${ticket.id}` },
          ),
        );
      } catch (error) {
        // A conflict means someone else just changed it; their change stands.
        if (!isApiError(error, 'VERSION_CONFLICT')) throw error;
      }
    }
  },
};

/** Fills the load book from the service at start, so limits hold across restarts. */
export async function loadOpenTickets(ctx: RoutingContext, max = 10_000): Promise<number> {
  let count = 0;
  for (const status of ['open', 'pending', 'on_hold'] as const) {
    for await (const ticket of ctx.client.tickets.list({ status, limit: 100 })) {
      ctx.book.track(ticket);
      if (++count >= max) return count;
    }
  }
  return count;
}
