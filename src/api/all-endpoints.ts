import type { EndpointDef } from './endpoint.js';
import { endpoints, type Endpoints } from './endpoints/index.js';

export type EndpointGroupName = keyof Endpoints;

/** `group.verb` of every route: the client method, the emulator handler key and the OpenAPI operationId. */
export type EndpointId = {
  [G in EndpointGroupName]: `${G}.${Extract<keyof Endpoints[G], string>}`;
}[EndpointGroupName];

/** The declaration of route `Id`: `EndpointOf<'tickets.get'>` is `typeof endpoints.tickets.get`. */
export type EndpointOf<Id extends EndpointId> = Id extends `${infer G extends EndpointGroupName}.${infer N}`
  ? Endpoints[G][N & keyof Endpoints[G]]
  : never;

export interface EndpointEntry {
  id: EndpointId;
  group: EndpointGroupName;
  name: string;
  def: EndpointDef;
}

/** The table as a flat list, in declaration order. */
export function allEndpoints(): EndpointEntry[] {
  return Object.entries(endpoints).flatMap(([group, defs]) =>
    Object.entries(defs as Record<string, EndpointDef>).map(([name, def]) => ({
      id: `${group}.${name}` as EndpointId,
      group: group as EndpointGroupName,
      name,
      def,
    })),
  );
}

/** The route with this id, or undefined. */
export function findEndpoint(id: string): EndpointEntry | undefined {
  return allEndpoints().find((e) => e.id === id);
}

/**
 * Orders routes so that a literal path segment comes before a `:param` in the same place:
 * `/v1/comments/settings` before `/v1/comments/:id`, `/v1/templates/generate/validate` before
 * `/v1/templates/:id/validate`. A router that matches in registration order needs exactly this.
 */
export function compareRoutePrecedence(a: Pick<EndpointDef, 'path'>, b: Pick<EndpointDef, 'path'>): number {
  const sa = a.path.split('/');
  const sb = b.path.split('/');
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const pa = sa[i]!.startsWith(':');
    const pb = sb[i]!.startsWith(':');
    if (pa !== pb) return pa ? 1 : -1;
  }
  // Paths of different lengths never match the same URL; ordering them keeps the comparator total.
  return sa.length - sb.length;
}

/** The table in the order the emulator registers its routes: `compareRoutePrecedence`, declaration order otherwise. */
export function routingOrder(): EndpointEntry[] {
  // Array.prototype.sort is stable, so routes that do not compete keep the table's order.
  return allEndpoints().sort((a, b) => compareRoutePrecedence(a.def, b.def));
}
