import type { StoreQuery } from './store-query.js';
import { TurnBatch } from './turn-batch.js';

/** One attempt's end: `owner` settles row `id` as `status`, retried at `next` (or never). */
export interface AttemptEnd {
  id: string;
  owner: string;
  status: 'done' | 'failed' | 'dead';
  next: number | null;
  error: string | null;
  now: number;
}

/** Attempt ends per statement at most. */
const MAX_FINISH_BATCH = 500;

/**
 * The attempt ends of one event-loop turn (or of one commit, under load) as one statement: each writes
 * its attempt to the history and settles its row, only while `owner` holds the lease. Handlers claimed
 * together mostly end together, and a statement each was the worker's largest share of round trips to
 * the server. Answers, per end, whether the caller still held the lease; of two ends of one row in one
 * batch the first counts, as if they had run one after the other.
 */
export function finishBatch(names: { inbox: string; attempts: string; relaxedCommit: string }, query: StoreQuery) {
  const sql = `
    WITH ${names.relaxedCommit},
    input AS (
      SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::bigint[])
        AS t (id, owner, status, next, error, now)
    ),
    mine AS (
      SELECT d.seq, d.id, d.attempts, d.lease_owner, d.updated_at, input.status, input.next, input.error, input.now
      FROM ${names.inbox} d JOIN input ON input.id = d.id AND input.owner = d.lease_owner
      -- Locks in seq order, as requeue does: two statements locking several rows never deadlock.
      WHERE d.status = 'processing' ORDER BY d.seq FOR UPDATE OF d
    ),
    logged AS (
      INSERT INTO ${names.attempts} (delivery_id, attempt, owner, started_at, finished_at, outcome, error)
      SELECT id, attempts, lease_owner, updated_at, now, status, error FROM mine
    ),
    settled AS (
      UPDATE ${names.inbox} d SET status = mine.status, next_attempt_at = mine.next, lease_owner = NULL,
        lease_until = NULL, last_error = mine.error, updated_at = mine.now
      FROM mine, relaxed WHERE d.seq = mine.seq RETURNING d.id
    )
    SELECT id FROM settled`;
  return new TurnBatch<AttemptEnd, boolean>(
    async (batch) => {
      const seen = new Set<string>();
      const ends = batch.filter((e) => !seen.has(e.id) && seen.add(e.id));
      const result = await query<{ id: string }>(sql, [
        ends.map((e) => e.id),
        ends.map((e) => e.owner),
        ends.map((e) => e.status),
        ends.map((e) => e.next),
        ends.map((e) => e.error),
        ends.map((e) => e.now),
      ]);
      const settled = new Set(result.rows.map((r) => r.id));
      return batch.map((e) => settled.delete(e.id));
    },
    { maxBatch: MAX_FINISH_BATCH, maxInFlight: 1 },
  );
}
