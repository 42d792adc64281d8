import { allEndpoints, type EndpointEntry, type EndpointGroupName } from '../../api/all-endpoints.js';
import type { Endpoints } from '../../api/endpoints/index.js';
import type { RouteHandlers } from '../route-handler.js';

/**
 * The routes of part 2 (templates, journeys, campaigns, automations, comments, AI groups, providers):
 * they answer 501 NOT_IMPLEMENTED after the auth, test-key, scope and plan checks, so nothing pretends
 * to work. `'all'` covers a whole group. Names are typed by the table, so a typo fails to compile.
 * The router, the capabilities route, `convo-kit emulator --help` and the tests all read this one list.
 */
export const PENDING = {
  automations: 'all',
} as const satisfies { [G in EndpointGroupName]?: 'all' | readonly (keyof Endpoints[G])[] };

type Pending = typeof PENDING;

/** Route names of group G that are pending. */
export type PendingNames<G extends EndpointGroupName> = G extends keyof Pending
  ? Pending[G] extends 'all'
    ? keyof Endpoints[G]
    : Pending[G] extends readonly (infer N)[]
      ? N
      : never
  : never;

type ImplementedGroup = {
  [G in EndpointGroupName]: G extends keyof Pending ? (Pending[G] extends 'all' ? never : G) : G;
}[EndpointGroupName];

/**
 * The handlers of a group with some routes pending. `Omit` keeps every key linked to its contract entry,
 * so find-references from `endpoints.channels.update` reaches the handler. A group with no pending route
 * is typed `satisfies RouteHandlers<typeof endpoints.<group>>` instead.
 */
export type ImplementedHandlers<G extends EndpointGroupName> = Omit<RouteHandlers<Endpoints[G]>, PendingNames<G>>;

/** The registry the app is built from: a missing handler of an implemented route is a compile error. */
export type RouteHandlerTable = { [G in ImplementedGroup]: ImplementedHandlers<G> };

/** Is route `group.name` one of the pending ones? */
export function isPending(group: string, name: string): boolean {
  const entry = (PENDING as Record<string, 'all' | readonly string[]>)[group];
  return entry === 'all' || (entry !== undefined && entry.includes(name));
}

/** The routes that answer 501 NOT_IMPLEMENTED, in table order. */
export function pendingEndpoints(): EndpointEntry[] {
  return allEndpoints().filter((e) => isPending(e.group, e.name));
}

/** How much of the table the emulator answers, for `convo-kit emulator --help`: pending routes as ids, a whole group as `group.*`. */
export function routeCoverage(): { implemented: number; total: number; pending: string[] } {
  const all = allEndpoints();
  const pending = pendingEndpoints();
  const wholeGroups = new Set(
    pending.map((e) => e.group).filter((g) => all.every((e) => e.group !== g || isPending(e.group, e.name))),
  );
  const named = pending.map((e) => (wholeGroups.has(e.group) ? `${e.group}.*` : e.id));
  return { implemented: all.length - pending.length, total: all.length, pending: [...new Set(named)] };
}
