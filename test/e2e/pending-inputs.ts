import type { EndpointId, EndpointOf } from '../../src/api/all-endpoints.js';
import type { EndpointDef } from '../../src/api/index.js';
import type { EndpointInput } from '../../src/client/index.js';
import type { PendingId } from './cases/route-case.js';

type InputOf<Id extends EndpointId> = EndpointOf<Id> extends infer E extends EndpointDef ? EndpointInput<E> : never;

/**
 * A valid input for every pending route, so the call passes the client's own validation and reaches the
 * emulator, which must answer 501 NOT_IMPLEMENTED. Typed per route: a route leaving PENDING must move
 * from here to the case table (an entry for a route that is not pending fails to compile).
 */
export const PENDING_INPUTS: { [K in PendingId]: InputOf<K> } = {
  'automations.list': {},
  'automations.get': { id: 'aut_e2e' },
  'automations.trigger': { id: 'aut_e2e', contact_id: 'ct_e2e' },
};
