import { resolve } from 'node:path';
import {
  type ClaimByIdOptions,
  type ClaimOptions,
  type DeliveryRecord,
  type DeliveryStore,
  type FailOptions,
  type NewDelivery,
  type RenewOptions,
} from './delivery-store.js';
import { DatabaseFileWatch, isStoreGone } from './database-file-watch.js';
import { GroupCommit } from './group-commit.js';
import { WalSync } from './wal-sync.js';
import { SAFETY_NET_CHECKPOINT_PAGES, WalCheckpointer } from './wal-checkpointer.js';
import { checkListQuery } from './list-query.js';
import { migrate } from './migrations.js';
import { openDatabase } from './open-database.js';
import { listSql } from './list-sql.js';
import {
  backlogOf,
  RECORD_COLUMNS,
  STEP_COLUMNS,
  stepValues,
  toStep,
  type StepRow,
  toAttempt,
  toRecord,
  toSummary,
  type AttemptRow,
  type BacklogRow,
  type RecordRow,
  type SummaryRow,
} from './delivery-rows.js';
import { DeliveryStoreError } from './store-error.js';
import type { SqliteStoreOptions } from './sqlite-store-options.js';
import { MAX_STEPS_PER_EVENT, type StepRecord } from './step-journal.js';
import { saveStepSql } from './step-sql.js';
import {
  checkedStep,
  checkClaimLimit,
  checkLease,
  checkRequeueIds,
  listPage,
  LOST_ERROR,
  MAX_ERROR_CHARS,
  PRUNE_CHUNK,
  pruneAfterOption,
  schedulePruning,
} from './store-rules.js';

/**
 * The worker's own writes (claims, outcomes) need not wait for an fsync: lost on power loss, a row is
 * claimed and run again, as at-least-once delivery allows. Only record() (an ack waits on it) and
 * requeue() (a person asked for it) are durable before they resolve.
 */
const BOOKKEEPING = { durable: false } as const;

type RowState = { status: string; lease_until: number | null };

/** Is a worker holding this row right now? (A processing row whose lease has not run out.) */
const leasedAt = (state: RowState, now: number) => state.status === 'processing' && (state.lease_until ?? 0) > now;

/**
 * The SQLite delivery store on the thread that calls it: every statement runs there. createSqliteStore
 * calls it on the event loop, or (`thread: true`) has the store thread call it (sqlite-store-thread.ts).
 */
export function createSqliteStoreCore(options: SqliteStoreOptions): DeliveryStore {
  const pruneAfter = pruneAfterOption(options.pruneDoneAfterMs);
  const durability = options.durability ?? 'full';
  const db = openDatabase(options.path, { durability, busyTimeoutMs: options.busyTimeoutMs });
  try {
    migrate(db);
  } catch (error) {
    db.close();
    throw error;
  }
  // `full` on a file: commit with NORMAL and fsync the WAL off the event loop before answering (WalSync).
  const walSync =
    durability === 'full' && db.memory === false ? new WalSync(`${resolve(options.path)}-wal`) : undefined;
  if (walSync) db.pragma('synchronous = NORMAL');
  const checkpointer = db.memory ? undefined : new WalCheckpointer(resolve(options.path));
  if (checkpointer) db.pragma(`wal_autocheckpoint = ${SAFETY_NET_CHECKPOINT_PAGES}`);
  const fileWatch = db.memory ? undefined : new DatabaseFileWatch(resolve(options.path));
  // Before an ack: the commit is in the file at the path (DatabaseFileWatch) and on stable storage (WalSync).
  const afterCommit =
    fileWatch || walSync
      ? async () => {
          fileWatch?.check();
          await walSync?.sync();
        }
      : undefined;
  const writes = new GroupCommit(db, afterCommit);
  let closed = false;
  /**
   * Rows committed whose ack still waits (fsync, file check): not claimed until it comes, so a row that
   * ends up refused (and is sent again) never runs here as well.
   */
  const unacked = new Set<string>();

  const sql = {
    insert: db.prepare(
      // No conflict target: a clash on the delivery id or on the event id is a duplicate alike.
      `INSERT INTO inbox (id, event_id, event, size, signature, timestamp, received_at, status, attempts, next_attempt_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?) ON CONFLICT DO NOTHING`,
    ),
    // Only on a duplicate: which stored row it duplicates.
    existing: db.prepare('SELECT id FROM inbox WHERE id = ? OR event_id = ? LIMIT 1').pluck(),
    insertBody: db.prepare('INSERT INTO inbox_bodies (seq, body) VALUES (?, ?)'),
    body: db.prepare('SELECT body FROM inbox_bodies WHERE seq = ?').pluck(),
    due: db.prepare('SELECT id, status FROM inbox WHERE next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?'),
    state: db.prepare('SELECT status, lease_until FROM inbox WHERE id = ?'),
    // An attempt is written once, when it ends (or is found lost): its start is the lease time (updated_at while processing).
    logAttempt: db.prepare(
      `INSERT INTO inbox_attempts (delivery_id, attempt, owner, started_at, finished_at, outcome, error)
       SELECT id, attempts, lease_owner, updated_at, ?, ?, ? FROM inbox WHERE id = ? AND status = 'processing' AND lease_owner = coalesce(?, lease_owner)`,
    ),
    lease: db.prepare(
      `UPDATE inbox SET status = 'processing', attempts = attempts + 1, lease_owner = ?, lease_until = ?, next_attempt_at = ?, updated_at = ?
       WHERE id = ? RETURNING ${RECORD_COLUMNS}`,
    ),
    countAfresh: db.prepare(`UPDATE inbox SET attempts = 0 WHERE id = ?`),
    // updated_at stays the lease time: it is the attempt's start (logAttempt).
    renew: db.prepare(
      `UPDATE inbox SET lease_until = ?, next_attempt_at = ? WHERE id = ? AND status = 'processing' AND lease_owner = ?`,
    ),
    finish: db.prepare(
      `UPDATE inbox SET status = ?, next_attempt_at = ?, lease_owner = NULL, lease_until = NULL, last_error = ?, updated_at = ?
       WHERE id = ? AND status = 'processing' AND lease_owner = ?`,
    ),
    requeue: db.prepare(
      `UPDATE inbox SET status = 'pending', attempts = 0, next_attempt_at = ?, lease_owner = NULL, lease_until = NULL, updated_at = ?
       WHERE id = ? AND NOT (status = 'processing' AND lease_until > ?)`,
    ),
    get: db.prepare(`SELECT ${RECORD_COLUMNS} FROM inbox WHERE id = ?`),
    // A row stored but refused (its database file was removed): only while no worker has taken it.
    forget: db.prepare(`DELETE FROM inbox WHERE id = ? AND status = 'pending'`),
    attempts: db.prepare(
      'SELECT delivery_id, attempt, owner, started_at, finished_at, outcome, error FROM inbox_attempts WHERE delivery_id = ? ORDER BY seq',
    ),
    // Unfinished rows through the due index (they all have a next attempt time); dead rows are counted apart.
    backlog: db.prepare(
      `SELECT status, count(*) AS n, min(received_at) AS oldest FROM inbox WHERE next_attempt_at IS NOT NULL GROUP BY status`,
    ),
    dead: db.prepare(`SELECT count(*) FROM inbox WHERE status = 'dead'`).pluck(),
    prune: db
      .prepare(
        `DELETE FROM inbox WHERE seq IN (SELECT seq FROM inbox WHERE status = 'done' AND updated_at < ? LIMIT ${PRUNE_CHUNK}) RETURNING id`,
      )
      .pluck(),
    saveStep: db.prepare(saveStepSql('inbox_steps', 'inbox_steps', () => '?')),
    step: db.prepare(`SELECT ${STEP_COLUMNS} FROM inbox_steps WHERE event_key = ? AND name = ?`),
    steps: db.prepare(
      `SELECT ${STEP_COLUMNS} FROM inbox_steps WHERE event_key = ? ORDER BY seq LIMIT ${MAX_STEPS_PER_EVENT}`,
    ),
    deliverySteps: db.prepare(
      `SELECT ${STEP_COLUMNS} FROM inbox_steps WHERE delivery_id = ? ORDER BY seq LIMIT ${MAX_STEPS_PER_EVENT}`,
    ),
    // Ids as one JSON array: one statement for a whole chunk, whatever its length.
    clearSteps: db.prepare('DELETE FROM inbox_steps WHERE delivery_id IN (SELECT value FROM json_each(?))'),
  };

  function open(): void {
    if (closed) throw new DeliveryStoreError('STORE_CLOSED', 'The delivery store is closed');
  }

  /** Leases one row (inside a write transaction): a lapsed attempt is closed as lost, a new one is opened. */
  /** `afresh`: attempts counted from 1 again (a replay), after a lapsed attempt is closed as lost. */
  function lease(
    id: string,
    status: string,
    owner: string,
    leaseMs: number,
    now: number,
    afresh = false,
  ): DeliveryRecord {
    if (status === 'processing') sql.logAttempt.run(now, 'lost', LOST_ERROR, id, null);
    if (afresh) sql.countAfresh.run(id);
    const until = now + leaseMs;
    const row = sql.lease.get(owner, until, until, now, id) as RecordRow;
    const record = toRecord(row, sql.body.get(row.seq) as Buffer);
    return status === 'processing' ? { ...record, recovered: true } : record;
  }

  function finish(
    id: string,
    owner: string,
    status: 'done' | 'failed' | 'dead',
    next: number | null,
    error: string | null,
    now: number,
  ): boolean {
    if (sql.logAttempt.run(now, status, error, id, owner).changes === 0) return false;
    sql.finish.run(status, next, error, now, id, owner);
    return true;
  }

  const prune = (olderThan: number): number => {
    open();
    let total = 0;
    // A chunk's deliveries and their steps go in one transaction.
    const pruneChunk = db.transaction(() => {
      const ids = sql.prune.all(olderThan) as string[];
      if (ids.length > 0) sql.clearSteps.run(JSON.stringify(ids));
      return ids.length;
    });
    for (;;) {
      const n = pruneChunk();
      total += n;
      if (n < PRUNE_CHUNK) return total;
    }
  };
  const stopPruning = schedulePruning(pruneAfter, (olderThan) => {
    try {
      prune(olderThan);
    } catch {
      // Busy (another process is writing) or closing: pruning is housekeeping, the next round catches up.
    }
  });

  return {
    pruneDoneAfterMs: pruneAfter,
    ready: () => fileWatch?.usable() ?? true,
    async record(delivery: NewDelivery) {
      open();
      fileWatch?.requireUsable();
      let inserted = false;
      try {
        return await writes.run(() => {
          const { id, event, body, signature, timestamp, receivedAt } = delivery;
          const eventId = delivery.eventId ?? null;
          const result = sql.insert.run(
            id,
            eventId,
            event,
            body.byteLength,
            signature,
            timestamp,
            receivedAt,
            receivedAt,
            receivedAt,
          );
          if (result.changes === 0) return { inserted: false, id: (sql.existing.get(id, eventId) as string) ?? id };
          sql.insertBody.run(result.lastInsertRowid, body);
          inserted = true;
          unacked.add(id);
          return { inserted: true, id };
        });
      } catch (error) {
        if ((error as { code?: unknown }).code === 'SQLITE_FULL') checkpointer?.diskFull();
        // Refused (503), so the service sends it again: the row left in the removed file must not run too.
        if (inserted && isStoreGone(error)) await writes.run(() => sql.forget.run(delivery.id), BOOKKEEPING);
        throw error;
      } finally {
        if (inserted) unacked.delete(delivery.id);
      }
    },
    async claim(options: ClaimOptions) {
      open();
      checkLease(options);
      checkClaimLimit(options.limit);
      if (options.limit === 0) return [];
      return writes.run(() => {
        const now = options.now ?? Date.now();
        let due = sql.due.all(now, options.limit) as { id: string; status: string }[];
        if (unacked.size > 0) due = due.filter((row) => !unacked.has(row.id));
        return due.map((row) => lease(row.id, row.status, options.owner, options.leaseMs, now));
      }, BOOKKEEPING);
    },
    async claimById(id: string, options: ClaimByIdOptions) {
      open();
      checkLease(options);
      return writes.run(() => {
        const now = options.now ?? Date.now();
        const state = sql.state.get(id) as RowState | undefined;
        if (!state || leasedAt(state, now)) return undefined;
        const afresh = options.replay === true;
        if (!afresh && (state.status === 'done' || state.status === 'dead')) return undefined;
        return lease(id, state.status, options.owner, options.leaseMs, now, afresh);
      }, BOOKKEEPING);
    },
    async renew(id: string, owner: string, options: RenewOptions) {
      open();
      checkLease({ ...options, owner });
      return writes.run(() => {
        const until = (options.now ?? Date.now()) + options.leaseMs;
        return sql.renew.run(until, until, id, owner).changes > 0;
      }, BOOKKEEPING);
    },
    async complete(id: string, owner: string, now = Date.now()) {
      open();
      return writes.run(() => finish(id, owner, 'done', null, null, now), BOOKKEEPING);
    },
    async fail(id: string, owner: string, failure: FailOptions) {
      open();
      const error = String(failure.error).slice(0, MAX_ERROR_CHARS);
      return writes.run(
        () =>
          finish(
            id,
            owner,
            failure.dead ? 'dead' : 'failed',
            failure.dead ? null : failure.retryAt,
            error,
            failure.now ?? Date.now(),
          ),
        BOOKKEEPING,
      );
    },
    async get(id: string) {
      open();
      const row = sql.get.get(id) as RecordRow | undefined;
      return row && toRecord(row, sql.body.get(row.seq) as Buffer);
    },
    async attempts(id: string) {
      open();
      return (sql.attempts.all(id) as AttemptRow[]).map(toAttempt);
    },
    async list(query) {
      open();
      const q = checkListQuery(query);
      const { sql: select, args } = listSql(q, { table: 'inbox', param: () => '?' });
      const rows = db.prepare(select).all(...args) as SummaryRow[];
      return listPage(rows, q.limit, toSummary);
    },
    async requeue(ids: readonly string[], now = Date.now()) {
      open();
      checkRequeueIds(ids);
      return writes.run(() => {
        let moved = 0;
        for (const id of new Set(ids)) {
          const state = sql.state.get(id) as RowState | undefined;
          if (!state || leasedAt(state, now)) continue;
          if (state.status === 'processing') sql.logAttempt.run(now, 'lost', LOST_ERROR, id, null);
          moved += sql.requeue.run(now, now, id, now).changes;
        }
        return moved;
      });
    },
    async prune(olderThan: number) {
      return prune(olderThan);
    },
    async steps(eventKey: string) {
      open();
      return (sql.steps.all(eventKey) as StepRow[]).map(toStep);
    },
    async saveStep(step: StepRecord) {
      open();
      const checked = checkedStep(step);
      // Not durable before it resolves (BOOKKEEPING): a step lost to power loss runs again, and a send
      // through ctx.client goes again under the same Idempotency-Key.
      return writes.run(() => {
        sql.saveStep.run(...stepValues(checked));
        return toStep(sql.step.get(checked.eventKey, checked.name) as StepRow);
      }, BOOKKEEPING);
    },
    async deliverySteps(deliveryId: string) {
      open();
      return (sql.deliverySteps.all(deliveryId) as StepRow[]).map(toStep);
    },
    async clearSteps(deliveryIds: readonly string[]) {
      open();
      checkRequeueIds(deliveryIds, 'clearSteps');
      if (deliveryIds.length === 0) return 0;
      return writes.run(() => sql.clearSteps.run(JSON.stringify(deliveryIds)).changes);
    },
    async backlog() {
      open();
      const rows = sql.backlog.all() as BacklogRow[];
      return backlogOf(rows, sql.dead.get() as number);
    },
    async close() {
      if (closed) return;
      closed = true;
      stopPruning();
      await writes.settled();
      await walSync?.close();
      await checkpointer?.close();
      db.close();
    },
  };
}
