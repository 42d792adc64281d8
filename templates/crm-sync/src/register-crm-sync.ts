import { type Receiver } from 'convo-kit/receiver';
import { type CrmContext } from './crm-context.js';
import { crmSyncHandlers as h } from './sync-handlers.js';

/** Subscribes the CRM's handlers on a receiver (one line per event so each `data` keeps its own type). */
export function registerCrmSync(receiver: Receiver, ctx: CrmContext): Receiver {
  return receiver
    .on('contact.updated', ({ data, deliveryId }) => h['contact.updated'](ctx, data, { deliveryId }))
    .on('contact.opted_out', ({ data, deliveryId }) => h['contact.opted_out'](ctx, data, { deliveryId }))
    .on('contact.opted_in', ({ data, deliveryId }) => h['contact.opted_in'](ctx, data, { deliveryId }))
    .on('conversation.created', ({ data, deliveryId }) => h['conversation.created'](ctx, data, { deliveryId }))
    .on('conversation.closed', ({ data, deliveryId }) => h['conversation.closed'](ctx, data, { deliveryId }))
    .on('conversation.assigned', ({ data, deliveryId }) => h['conversation.assigned'](ctx, data, { deliveryId }))
    .on('message.received', ({ data, deliveryId }) => h['message.received'](ctx, data, { deliveryId }))
    .on('message.sent', ({ data, deliveryId }) => h['message.sent'](ctx, data, { deliveryId }))
    .on('message.delivery_failed', ({ data, deliveryId }) => h['message.delivery_failed'](ctx, data, { deliveryId }));
}
