import { type Receiver } from 'convo-kit/receiver';
import { type CrmContext } from './crm-context.js';
import { crmSyncHandlers as h } from './sync-handlers.js';

/**
 * Subscribes the CRM's handlers on a receiver (one line per event so each `data` keeps its own type). The
 * receiver must have been created with `client`: handlers call the service through `ctx.client`, the event's.
 */
export function registerCrmSync(receiver: Receiver, ctx: CrmContext): Receiver {
  return receiver
    .on('contact.updated', (event) => h['contact.updated'](ctx, event.data, event))
    .on('contact.opted_out', (event) => h['contact.opted_out'](ctx, event.data, event))
    .on('contact.opted_in', (event) => h['contact.opted_in'](ctx, event.data, event))
    .on('conversation.created', (event) => h['conversation.created'](ctx, event.data, event))
    .on('conversation.closed', (event) => h['conversation.closed'](ctx, event.data, event))
    .on('conversation.assigned', (event) => h['conversation.assigned'](ctx, event.data, event))
    .on('message.received', (event) => h['message.received'](ctx, event.data, event))
    .on('message.sent', (event) => h['message.sent'](ctx, event.data, event))
    .on('message.delivery_failed', (event) => h['message.delivery_failed'](ctx, event.data, event));
}
