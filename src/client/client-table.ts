import { type ClientLogger } from './client-logger.js';
import { type ApiTable } from './client-types.js';

/** What a client was built from, kept on it out of sight: the receiver's event-bound client is derived from it. */
export interface ClientTable {
  table: ApiTable;
  maxPages: number;
  logger: ClientLogger;
}

const CLIENT_TABLE = Symbol('convo-kit.clientTable');

/** Marks `client` (before it is frozen) as built from `from`; not enumerable, so it never shows in a log. */
export function markClientTable(client: object, from: ClientTable): void {
  Object.defineProperty(client, CLIENT_TABLE, { value: from });
}

/** The table a client was built from, or undefined for anything createClient / createApiClient did not make. */
export function clientTableOf(client: unknown): ClientTable | undefined {
  return typeof client === 'object' && client !== null
    ? ((client as { [CLIENT_TABLE]?: ClientTable })[CLIENT_TABLE] ?? undefined)
    : undefined;
}
