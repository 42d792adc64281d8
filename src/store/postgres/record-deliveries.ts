import { createHash } from 'node:crypto';
import type { NewDelivery } from '../delivery-store.js';
import { insertDeliveriesSql, insertDeliveriesValues } from './insert-deliveries.js';
import type { StoreQuery } from './store-query.js';
import { TurnBatch } from './turn-batch.js';

/** Deliveries per INSERT: a flood is split into statements of this many rows. */
const MAX_RECORD_BATCH = 1000;
/**
 * Recording statements in flight per store; the rows that arrive meanwhile are the next statement. Under
 * load a statement then holds what was read during a commit (10-25 rows at 1,000-1,500 deliveries/s),
 * where a statement per event-loop turn held about one and queued for connections. Two rather than one:
 * one statement runs while the other waits for its fsync (one receiver acked about 25% more, A/B on the
 * shared build machine).
 */
const RECORDS_IN_FLIGHT = 2;

/**
 * The recording statement is prepared once per connection, by a name that its text decides (so two
 * stores on other schemas never share one): parsed and planned each time, the long statement cost the
 * server, and sending its text cost the receiver, more than its rows did (README "Many receivers, one
 * inbox: PostgreSQL"). PgBouncer in transaction mode needs 1.21 or later with max_prepared_statements set.
 */
const preparedName = (sql: string) => `convo_kit_${createHash('sha256').update(sql).digest('hex').slice(0, 32)}`;

/** What recording one delivery answers: stored now, or the id of the row it duplicates. */
export interface Recorded {
  inserted: boolean;
  id: string;
}

/**
 * Group commit of the deliveries recorded in one event-loop turn (or during one commit, under load): one
 * statement, and each caller answered after its commit. `onStored` runs once a batch stored rows.
 */
export function recordDeliveries(
  names: { inbox: string; bodies: string },
  query: StoreQuery,
  onStored: () => void,
): TurnBatch<NewDelivery, Recorded> {
  const insertSql = insertDeliveriesSql(names.inbox, names.bodies);
  const insertName = preparedName(insertSql);
  return new TurnBatch<NewDelivery, Recorded>(
    async (batch) => {
      // One row per delivery id and per event id: a retry read in the same turn as its first attempt is a duplicate of it.
      const seen = new Set<string>();
      const rows: NewDelivery[] = [];
      for (const d of batch) {
        const keys = [`d:${d.id}`, ...(d.eventId == null ? [] : [`e:${d.eventId}`])];
        if (keys.some((k) => seen.has(k))) continue;
        keys.forEach((k) => seen.add(k));
        rows.push(d);
      }
      const inserted = new Set<string>();
      for (const values of insertDeliveriesValues(rows)) {
        const result = await query<{ id: string }>(insertSql, values, insertName);
        result.rows.forEach((r) => inserted.add(r.id));
      }
      if (inserted.size > 0) onStored();
      // Only the first of several calls with one id is the insert; the others duplicate a stored row.
      const answers = batch.map((d) => ({ inserted: inserted.delete(d.id), id: d.id }));
      const duplicates = batch.filter((_, i) => !answers[i]!.inserted);
      if (duplicates.length === 0) return answers;
      const existing = await query<{ id: string; event_id: string | null }>(
        `SELECT id, event_id FROM ${names.inbox} WHERE id = ANY($1::text[]) OR event_id = ANY($2::text[])`,
        [duplicates.map((d) => d.id), duplicates.flatMap((d) => (d.eventId == null ? [] : [d.eventId]))],
      );
      return batch.map((d, i) => {
        if (answers[i]!.inserted) return answers[i]!;
        const row =
          existing.rows.find((r) => r.id === d.id) ??
          existing.rows.find((r) => d.eventId != null && r.event_id === d.eventId);
        return { inserted: false, id: row?.id ?? d.id };
      });
    },
    { maxBatch: MAX_RECORD_BATCH, maxInFlight: RECORDS_IN_FLIGHT },
  );
}
