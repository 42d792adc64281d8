import { type Receiver } from 'convo-kit/receiver';
import { type RoutingContext } from './routing-context.js';
import { routingHandlers as h } from './routing-handlers.js';

/** Subscribes the routing handlers on a receiver (one line per event so each `data` keeps its own type). */
export function registerTicketRouting(receiver: Receiver, ctx: RoutingContext): Receiver {
  return receiver
    .on('ticket.created', ({ data }) => h['ticket.created'](ctx, data))
    .on('ticket.updated', ({ data }) => h['ticket.updated'](ctx, data))
    .on('ticket.assigned', ({ data }) => h['ticket.assigned'](ctx, data))
    .on('ticket.closed', ({ data }) => h['ticket.closed'](ctx, data))
    .on('conversation.assigned', ({ data }) => h['conversation.assigned'](ctx, data));
}
