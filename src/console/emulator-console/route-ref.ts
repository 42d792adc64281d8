import { findEndpoint, type EndpointId } from '../../api/all-endpoints.js';
import type { ActionRequest } from '../browser/console-data.js';

/**
 * A route the console reads or a button calls, named as the contract names it (`conversations.update`, the
 * client method and operationId) or, for an `/_emulator` control, by the control's path. `params` fill the
 * path's `:name`s with `{…}` templates the click fills (browser/console-data.ts); a parameter not given is
 * `{of}`, the row a detail panel or an `across` panel lists for.
 */
export type RouteRef = (
  | { route: EndpointId }
  /** Relative to /_emulator (`/handoff`); POST unless `method` says otherwise. */
  | { control: string; method?: 'GET' | 'POST' }
) & {
  params?: Readonly<Record<string, string>>;
  query?: Readonly<Record<string, string | number>>;
};

/** A route's method and its path with the parameters and query filled in: what the page's script calls. */
export function resolveRoute(ref: RouteRef): { method: string; path: string } {
  const { method, path } =
    'route' in ref
      ? (findEndpoint(ref.route)?.def ?? { method: '', path: '' })
      : { method: ref.method ?? 'POST', path: `/_emulator${ref.control}` };
  if (!path) throw new TypeError(`No route ${JSON.stringify(ref)} in the contract`);
  const given = new Set(Object.keys(ref.params ?? {}));
  const filled = path.replace(/:(\w+)/g, (_, name: string) => {
    given.delete(name);
    return ref.params?.[name] ?? '{of}';
  });
  if (given.size > 0) throw new TypeError(`${path} has no parameter ${[...given].join(', ')}`);
  const query = new URLSearchParams(Object.entries(ref.query ?? {}).map(([k, v]) => [k, String(v)])).toString();
  return { method, path: query ? `${filled}?${query}` : filled };
}

/** A list route: a GET, or a mistake in the panel's declaration. */
export function listPath(ref: RouteRef): string {
  const { method, path } = resolveRoute(ref);
  if (method !== 'GET') throw new TypeError(`A panel lists with a GET route, not ${method} ${path}`);
  return path;
}

/** A button's route: one that changes something. */
export function actionRoute(ref: RouteRef): Pick<ActionRequest, 'method' | 'path'> {
  const { method, path } = resolveRoute(ref);
  if (method !== 'POST' && method !== 'PATCH' && method !== 'PUT' && method !== 'DELETE') {
    throw new TypeError(`A button changes something: ${method} ${path} does not`);
  }
  return { method, path };
}
