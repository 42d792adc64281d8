import type { EndpointDef } from './endpoint.js';
import { endpoints, type Endpoints } from './endpoints/index.js';

export type EndpointGroupName = keyof Endpoints;

/** `group.verb` of every route: the client method, the emulator handler key and the OpenAPI operationId. */
export type EndpointId = {
  [G in EndpointGroupName]: `${G}.${Extract<keyof Endpoints[G], string>}`;
}[EndpointGroupName];

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
