import { EVENT_NAMESPACES } from '../events/index.js';
import { DeliveryStatus, LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT, type ListQuery } from './delivery-store.js';
import { decodeSeqCursor, encodeSeqCursor } from '../internal/seq-cursor.js';
import { DeliveryStoreError } from './store-error.js';

/** Which events a pattern selects, in a form any SQL store can turn into a predicate. */
export type EventFilter = { kind: 'all' } | { kind: 'exact'; name: string } | { kind: 'prefix'; prefix: string };

/** A list query checked and bounded: what a store's SQL is built from. */
export interface CheckedListQuery {
  statuses: DeliveryStatus[] | null;
  event: EventFilter;
  since: number | null;
  until: number | null;
  limit: number;
  /** Rows stored strictly before this position (newest first, in the order rows were stored). */
  before: number | null;
}

const NAMESPACE_WILDCARDS = new Set<string>(EVENT_NAMESPACES.map((ns) => `${ns}.*`));

/** Exactly the service's matching (see matchesPattern): `*`, `ns.*` for the five namespaces, otherwise an exact name. */
export function eventFilter(pattern: string | undefined): EventFilter {
  if (pattern === undefined || pattern === '*') return { kind: 'all' };
  if (NAMESPACE_WILDCARDS.has(pattern)) return { kind: 'prefix', prefix: pattern.slice(0, -1) };
  return { kind: 'exact', name: pattern };
}

function time(name: string, value: number | undefined): number | null {
  if (value === undefined) return null;
  if (!Number.isFinite(value))
    throw new DeliveryStoreError(
      'INVALID_QUERY',
      `Expected \`${name}\` to be milliseconds since the epoch, got \`${String(value)}\``,
    );
  return value;
}

/** A cursor over a store's insertion sequence (SQLite rowid, PostgreSQL bigserial). */
export const encodeCursor = (position: number): string => encodeSeqCursor('dlv', position);

function decodeCursor(cursor: string): number {
  const position = decodeSeqCursor('dlv', cursor);
  if (position !== undefined) return position;
  throw new DeliveryStoreError(
    'INVALID_CURSOR',
    'cursor is not one this list returned; pass nextCursor back exactly as received',
  );
}

export function checkListQuery(query: ListQuery = {}): CheckedListQuery {
  const limit = query.limit ?? LIST_DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > LIST_MAX_LIMIT) {
    throw new DeliveryStoreError(
      'INVALID_QUERY',
      `Expected \`limit\` to be an integer from 1 to ${LIST_MAX_LIMIT}, got \`${String(limit)}\``,
    );
  }
  let statuses: DeliveryStatus[] | null = null;
  if (query.status !== undefined) {
    const list = typeof query.status === 'string' ? [query.status] : [...query.status];
    for (const status of list) {
      if (!DeliveryStatus.safeParse(status).success) {
        throw new DeliveryStoreError(
          'INVALID_QUERY',
          `Expected \`status\` to be one of ${DeliveryStatus.options.join(', ')}, got \`${String(status)}\``,
        );
      }
    }
    statuses = list;
  }
  if (query.eventPattern !== undefined && (typeof query.eventPattern !== 'string' || query.eventPattern.length > 200)) {
    throw new DeliveryStoreError('INVALID_QUERY', 'Expected `eventPattern` to be an event name, `*` or `ns.*`');
  }
  return {
    statuses,
    event: eventFilter(query.eventPattern),
    since: time('since', query.since),
    until: time('until', query.until),
    limit,
    before: query.cursor ? decodeCursor(query.cursor) : null,
  };
}
