import type { EndpointGroupName } from '../../api/all-endpoints.js';
import type { Endpoints } from '../../api/endpoints/index.js';
import type { EndpointDef } from '../../api/endpoint.js';
import type { RouteHandler } from '../route-handler.js';

/**
 * The routes of part 2 (templates, journeys, campaigns, automations, comments, AI groups, providers):
 * they answer 501 NOT_IMPLEMENTED after the auth, test-key, scope and plan checks, so nothing pretends
 * to work. `'all'` covers a whole group (including routes the table adds to it later). The one list the
 * contract test reads as pending.
 */
export const PENDING = {
  groups: ['uploadKnowledge'],
  journeys: 'all',
  trigger: 'all',
  events: 'all',
  campaigns: 'all',
  automations: 'all',
  comments: 'all',
  webhooks: ['send', 'triggerCampaign'],
} as const satisfies Record<string, 'all' | readonly string[]>;

type Pending = typeof PENDING;

/** Route names of group G that are pending. */
export type PendingNames<G extends string> = G extends keyof Pending
  ? Pending[G] extends 'all'
    ? string
    : Pending[G] extends readonly (infer N)[]
      ? N
      : never
  : never;

type ImplementedGroup = {
  [G in EndpointGroupName]: PendingNames<G> extends string ? (string extends PendingNames<G> ? never : G) : G;
}[EndpointGroupName];

/** The handlers a group must have: every route of it that is not pending. */
export type ImplementedHandlers<G extends EndpointGroupName> = {
  [K in Exclude<keyof Endpoints[G], PendingNames<G>>]: Endpoints[G][K] extends EndpointDef
    ? RouteHandler<Endpoints[G][K]>
    : never;
};

/** The registry the app is built from: a missing handler of an implemented route is a compile error. */
export type RouteHandlerTable = { [G in ImplementedGroup]: ImplementedHandlers<G> };

/** Is route `group.name` one of the pending ones? */
export function isPending(group: string, name: string): boolean {
  const entry = (PENDING as Record<string, 'all' | readonly string[]>)[group];
  return entry === 'all' || (entry !== undefined && entry.includes(name));
}
