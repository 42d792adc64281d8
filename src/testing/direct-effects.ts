import type { EventContext } from '../receiver/event-handler.js';

/** What a handler takes from its delivery besides the event: the event-bound client, `step` and the delivery id. */
export type DirectEffects = Pick<EventContext, 'client' | 'step' | 'deliveryId'>;

/**
 * A handler's effects outside a receiver, for calling your handler functions directly in a test: `client`
 * as given (no step journal, no Idempotency-Key of an event), each `step` simply runs, nothing is journaled.
 * Tests that deliver events through a receiver get the journaled ones.
 * @example await onContactUpdated(crm, event.data, directEffects(client));
 */
export function directEffects(client: EventContext['client'], deliveryId = 'direct'): DirectEffects {
  return { client, step: async (_name, fn) => fn(), deliveryId };
}
