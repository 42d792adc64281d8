import type { z } from 'zod';
import type { EndpointEntry, EndpointId } from '../all-endpoints.js';
import type { HttpMethod } from '../endpoint.js';
import { PROVIDER_PUTS } from '../schemas/provider-config.js';

/** `/v1/tickets/:id` -> `/v1/tickets/{id}`. */
export function openapiPath(path: string): string {
  return path.replace(/:([A-Za-z_]\w*)/g, '{$1}');
}

/**
 * The routes whose body depends on a path parameter. The document gives each value a literal path of
 * its own with its own body, so that a validator checks the `config` the server will check.
 */
const BODY_BY_PATH: {
  readonly [K in EndpointId]?: { param: string; bodies: Readonly<Record<string, z.ZodObject>> };
} = {
  'groups.putProvider': { param: 'provider', bodies: PROVIDER_PUTS },
  'channels.putProvider': { param: 'provider', bodies: PROVIDER_PUTS },
};

/** One operation of the document: the route it documents (its path made literal where it must be) and where. */
export interface DocumentedOperation {
  entry: EndpointEntry;
  /** OpenAPI path: `/v1/tickets/{id}`. */
  path: string;
  /** Lower case, as a path item's key. */
  method: string;
  operationId: string;
  /** Set on a method the route accepts as the same as its own (`aliases`). */
  aliasOf?: HttpMethod;
}

/** The entry with one value of a path parameter written into its path, and the body that value takes. */
function withValue(entry: EndpointEntry, param: string, value: string, body: z.ZodObject): EndpointEntry {
  const params = entry.def.params?.omit({ [param]: true } as Record<string, true>);
  return { ...entry, def: { ...entry.def, path: entry.def.path.replace(`:${param}`, value), params, body } };
}

/**
 * Every operation the document has for a route: one per method it accepts (`operationId` the route id,
 * an alias's `<id>.<method>`), and, where the body depends on a path value, one per value (`<id>.<value>`).
 */
export function documentedOperations(entry: EndpointEntry): DocumentedOperation[] {
  const byPath = BODY_BY_PATH[entry.id];
  const routes = byPath
    ? Object.entries(byPath.bodies).map(([value, body]) => ({
        route: withValue(entry, byPath.param, value, body),
        id: `${entry.id}.${value}`,
      }))
    : [{ route: entry, id: entry.id as string }];
  return routes.flatMap(({ route, id }) => [
    { entry: route, path: openapiPath(route.def.path), method: route.def.method.toLowerCase(), operationId: id },
    ...(route.def.aliases ?? []).map((alias) => ({
      entry: route,
      path: openapiPath(route.def.path),
      method: alias.toLowerCase(),
      operationId: `${id}.${alias.toLowerCase()}`,
      aliasOf: alias,
    })),
  ]);
}
