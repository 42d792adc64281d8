import { type Receiver } from 'convo-kit/receiver';
import { type RoutingContext } from './routing-context.js';
import { routingHandlers as h } from './routing-handlers.js';

/**
 * Subscribes the routing handlers on a receiver (one line per event so each `data` keeps its own type). The
 * receiver must have been created with `client`: handlers call the service through `ctx.client`, the event's.
 */
export function registerTicketRouting(receiver: Receiver, ctx: RoutingContext): Receiver {
  return receiver
    .on('ticket.created', (event) => h['ticket.created'](ctx, event.data, event))
    .on('ticket.updated', (event) => h['ticket.updated'](ctx, event.data, event))
    .on('ticket.assigned', (event) => h['ticket.assigned'](ctx, event.data, event))
    .on('ticket.closed', (event) => h['ticket.closed'](ctx, event.data, event))
    .on('conversation.assigned', (event) => h['conversation.assigned'](ctx, event.data, event));
}
