import type { EndpointGroupName } from '../../../src/api/index.js';
import type { Endpoints } from '../../../src/api/endpoints/index.js';
import type { PendingNames } from '../../../src/emulator/platform/pending.js';
import type { E2e } from '../harness.js';

/** `group.name` of every route the emulator implements (not in PENDING): exactly the keys the case table must have. */
export type ImplementedId = {
  [G in EndpointGroupName]: `${G}.${Exclude<Extract<keyof Endpoints[G], string>, PendingNames<G>>}`;
}[EndpointGroupName];

/** `group.name` of every pending route (answers 501 until part 2). */
export type PendingId = {
  [G in EndpointGroupName]: `${G}.${Extract<Extract<keyof Endpoints[G], string>, PendingNames<G>>}`;
}[EndpointGroupName];

/**
 * One route driven through the client: builds a valid input from the seeded state (looked up through
 * the client), calls the route, and asserts an outcome that proves the route did its job.
 */
export type RouteCase = (t: E2e) => Promise<void>;

/** Part of the case table (one file per resource family). */
export type RouteCases = Partial<Record<ImplementedId, RouteCase>>;
