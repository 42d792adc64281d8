import type pg from 'pg';
import {
  type ClaimByIdOptions,
  type ClaimOptions,
  type DeliveryRecord,
  type DeliveryStore,
  type FailOptions,
  type NewDelivery,
  type RenewOptions,
} from '../delivery-store.js';
import {
  backlogOf,
  RECORD_COLUMNS,
  toAttempt,
  toRecord,
  toSummary,
  type AttemptRow,
  type BacklogRow,
  type RecordRow,
  type SummaryRow,
} from '../delivery-rows.js';
import { listSql } from '../list-sql.js';
import { checkListQuery } from '../list-query.js';
import { DeliveryStoreError } from '../store-error.js';
import {
  checkClaimLimit,
  checkLease,
  checkRequeueIds,
  listPage,
  LOST_ERROR,
  MAX_ERROR_CHARS,
  PRUNE_CHUNK,
  pruneAfterOption,
  schedulePruning,
} from '../store-rules.js';
import { migratePostgres, storedChannel } from './postgres-migrations.js';
import { finishBatch } from './finish-batch.js';
import { postgresStepJournal } from './postgres-step-journal.js';
import { recordDeliveries } from './record-deliveries.js';
import { StoredListener } from './stored-listener.js';
import { StoredNotifier } from './stored-notifier.js';
import { InvalidOptionError } from '../../errors.js';
import { postgresDriver } from './load-pg.js';

export interface PostgresStoreOptions {
  /** `postgres://user@host:5432/db`; the store opens a pool and ends it on close(). Pass this or `pool`. */
  connectionString?: string;
  /** A pool you own: the store uses it and leaves it open on close(). It holds one connection for LISTEN. */
  pool?: pg.Pool;
  /** The schema holding the inbox's tables, created with them when absent. @default 'convo_kit' */
  schema?: string;
  /** Connections of the pool the store opens. @default 10 */
  poolSize?: number;
  /** Done rows older than this are pruned (hourly, by every process). `null` keeps everything. @default 7 days */
  pruneDoneAfterMs?: number | null;
  /** `false`: never create or migrate the schema, refuse when it is absent (readers such as the CLI). @default true */
  migrate?: boolean;
}

/** A request waits this long for a connection before it fails (503), rather than hanging while the server is down. */
const CONNECT_TIMEOUT_MS = 3000;
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Times are bigint milliseconds: read them as numbers (safe until the year 287396), only in our own queries. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === postgresDriver.types.builtins.INT8
      ? Number
      : postgresDriver.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * The shared delivery store: several receiver processes, on one or many machines, use one inbox.
 * Claims lease rows with `FOR UPDATE SKIP LOCKED`, so each row runs in one worker at a time; dedupe is
 * the primary key, so it holds across every process (README "Many receivers: PostgreSQL").
 * @example const store = createPostgresStore({ connectionString: process.env.DATABASE_URL });
 */
export function createPostgresStore(options: PostgresStoreOptions): DeliveryStore {
  if (options === null || typeof options !== 'object')
    throw new InvalidOptionError('createPostgresStore() needs an options object with `connectionString` or `pool`');
  if ((options.connectionString === undefined) === (options.pool === undefined))
    throw new InvalidOptionError('Pass exactly one of `connectionString` (postgres://…) or `pool` (a pg.Pool)');
  if (options.connectionString !== undefined && !/^postgres(ql)?:\/\//.test(String(options.connectionString)))
    throw new InvalidOptionError('Expected `connectionString` to be a postgres:// URL');
  const schemaName = options.schema ?? 'convo_kit';
  if (typeof schemaName !== 'string' || !SCHEMA_NAME.test(schemaName))
    throw new InvalidOptionError(
      `Expected \`schema\` to be a lower-case SQL name (letters, digits, _; at most 63), got \`${String(schemaName)}\``,
    );
  const pruneAfter = pruneAfterOption(options.pruneDoneAfterMs);
  const poolSize = options.poolSize ?? 10;
  if (!Number.isInteger(poolSize) || poolSize < 2)
    throw new InvalidOptionError(`Expected \`poolSize\` to be an integer from 2 and up, got \`${String(poolSize)}\``);

  const ownsPool = options.pool === undefined;
  const pool =
    options.pool ??
    new postgresDriver.Pool({
      connectionString: options.connectionString,
      max: poolSize,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
  // An idle connection dropped by a restarting server must not crash the process; the next query reconnects.
  const onIdleError = () => undefined;
  pool.on('error', onIdleError);

  const s = `"${schemaName}"`;
  const inbox = `${s}.inbox`;
  const bodies = `${s}.inbox_bodies`;
  const attemptsTable = `${s}.inbox_attempts`;
  const stepsTable = `${s}.inbox_steps`;
  const cols = RECORD_COLUMNS.split(', ')
    .map((c) => `d.${c}`)
    .join(', ');
  let closed = false;
  let ready: Promise<void> | undefined;

  /** Migrates on first use (a server down at start fails that call, and the next one tries again). */
  function whenReady(): Promise<void> {
    ready ??= migratePostgres(pool, s, { create: options.migrate !== false }).catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  }

  async function query<R extends pg.QueryResultRow>(
    text: string,
    values: unknown[] = [],
    name?: string,
  ): Promise<pg.QueryResult<R>> {
    await whenReady();
    return pool.query<R>({ text, values, types, ...(name && { name }) });
  }

  const notifier = new StoredNotifier(pool, storedChannel(schemaName));
  // Committed rows wake the workers (this process's too, through its LISTEN).
  const recordBatch = recordDeliveries({ inbox, bodies }, query, () => notifier.notify());

  /**
   * A CTE that makes its statement commit without waiting for the WAL fsync, joined into the worker's
   * writes (claims, renewals, attempt ends): only acks wait for the disk. Losing one of these to a crash of
   * the server only runs a handler again, which at-least-once delivery allows (the SQLite store makes the
   * same trade, README "Durability"), and they no longer queue their fsyncs in front of the acks' commits.
   */
  const relaxedCommit = `relaxed AS MATERIALIZED (SELECT set_config('synchronous_commit', 'off', true))`;

  /**
   * Leases the rows `due` selects (locking them, skipping rows another transaction holds): a lapsed
   * attempt is closed as lost, a new one is opened, all in one statement. $1 now, $2 owner, $3 lease end.
   */
  const leaseSql = (due: string, attempts = 'd.attempts + 1') => `
    WITH ${relaxedCommit},
    due AS (${due} FOR UPDATE SKIP LOCKED),
    lost AS (
      INSERT INTO ${attemptsTable} (delivery_id, attempt, owner, started_at, finished_at, outcome, error)
      SELECT d.id, d.attempts, d.lease_owner, d.updated_at, $1, 'lost', '${LOST_ERROR}'
      FROM ${inbox} d JOIN due ON d.seq = due.seq WHERE d.status = 'processing'
    ),
    leased AS (
      UPDATE ${inbox} d SET status = 'processing', attempts = ${attempts}, lease_owner = $2,
        lease_until = $3, next_attempt_at = $3, updated_at = $1
      FROM due, relaxed WHERE d.seq = due.seq RETURNING ${cols}, due.due_at, due.was
    )
    SELECT leased.*, b.body FROM leased JOIN ${bodies} b ON b.seq = leased.seq ORDER BY due_at, seq`;
  const claimSql = leaseSql(
    `SELECT seq, next_attempt_at AS due_at, status AS was FROM ${inbox} WHERE next_attempt_at <= $1 ORDER BY next_attempt_at LIMIT $4`,
  );
  const claimByIdSql = leaseSql(
    `SELECT seq, next_attempt_at AS due_at, status AS was FROM ${inbox} WHERE id = $4
       AND (status IN ('pending', 'failed') OR (status = 'processing' AND coalesce(lease_until, 0) <= $1))`,
  );
  // A replay: any status but a live lease, attempts counted afresh, in one statement (no requeue to race).
  const replayClaimSql = leaseSql(
    `SELECT seq, next_attempt_at AS due_at, status AS was FROM ${inbox} WHERE id = $4
       AND NOT (status = 'processing' AND coalesce(lease_until, 0) > $1)`,
    '1',
  );
  const finishes = finishBatch({ inbox, attempts: attemptsTable, relaxedCommit }, query);

  async function lease(sql: string, now: number, owner: string, leaseMs: number, target: string | number) {
    const result = await query<RecordRow & { body: Buffer; was: string }>(sql, [now, owner, now + leaseMs, target]);
    return result.rows.map((row) => {
      const record = toRecord(row, row.body);
      return row.was === 'processing' ? { ...record, recovered: true } : record;
    });
  }

  function open(): void {
    if (closed) throw new DeliveryStoreError('STORE_CLOSED', 'The delivery store is closed');
  }

  const listener = new StoredListener(pool, storedChannel(schemaName));

  async function prune(olderThan: number): Promise<number> {
    open();
    let total = 0;
    for (;;) {
      // A chunk's deliveries and their steps go in one statement.
      const result = await query<{ n: number }>(
        `WITH pruned AS (
           DELETE FROM ${inbox} WHERE seq IN (SELECT seq FROM ${inbox} WHERE status = 'done' AND updated_at < $1 LIMIT ${PRUNE_CHUNK})
           RETURNING id
         ),
         steps AS (DELETE FROM ${stepsTable} WHERE delivery_id IN (SELECT id FROM pruned))
         SELECT count(*)::int AS n FROM pruned`,
        [olderThan],
      );
      const n = result.rows[0]!.n;
      total += n;
      if (n < PRUNE_CHUNK) return total;
    }
  }
  // Housekeeping: a failed round (the server is down) is caught up by the next one.
  const stopPruning = schedulePruning(pruneAfter, (olderThan) => void prune(olderThan).catch(() => undefined));

  const journal = postgresStepJournal({
    table: stepsTable,
    query,
    pool,
    ready: whenReady,
    types,
    relaxedCommit,
    open,
  });

  return {
    pruneDoneAfterMs: pruneAfter,
    ...journal,
    async record(delivery: NewDelivery) {
      open();
      return recordBatch.add(delivery);
    },
    async claim(options: ClaimOptions) {
      open();
      checkLease(options);
      checkClaimLimit(options.limit);
      if (options.limit === 0) return [];
      return lease(claimSql, options.now ?? Date.now(), options.owner, options.leaseMs, options.limit);
    },
    async claimById(id: string, options: ClaimByIdOptions) {
      open();
      checkLease(options);
      const sql = options.replay === true ? replayClaimSql : claimByIdSql;
      const [record] = await lease(sql, options.now ?? Date.now(), options.owner, options.leaseMs, id);
      return record as DeliveryRecord | undefined;
    },
    async renew(id: string, owner: string, options: RenewOptions) {
      open();
      checkLease({ ...options, owner });
      const until = (options.now ?? Date.now()) + options.leaseMs;
      // updated_at stays the lease time: it is the attempt's start.
      const { rowCount } = await query(
        `WITH ${relaxedCommit} UPDATE ${inbox} SET lease_until = $3, next_attempt_at = $3 FROM relaxed
         WHERE id = $1 AND status = 'processing' AND lease_owner = $2`,
        [id, owner, until],
      );
      return (rowCount ?? 0) > 0;
    },
    async complete(id: string, owner: string, now = Date.now()) {
      open();
      return finishes.add({ id, owner, status: 'done', next: null, error: null, now });
    },
    async fail(id: string, owner: string, failure: FailOptions) {
      open();
      const error = String(failure.error).slice(0, MAX_ERROR_CHARS);
      const next = failure.dead ? null : failure.retryAt;
      const status = failure.dead ? 'dead' : 'failed';
      return finishes.add({ id, owner, status, next, error, now: failure.now ?? Date.now() });
    },
    async get(id: string) {
      open();
      const result = await query<RecordRow & { body: Buffer }>(
        `SELECT ${cols}, b.body FROM ${inbox} d JOIN ${bodies} b ON b.seq = d.seq WHERE d.id = $1`,
        [id],
      );
      const row = result.rows[0];
      return row && toRecord(row, row.body);
    },
    async attempts(id: string) {
      open();
      const result = await query<AttemptRow>(
        `SELECT delivery_id, attempt, owner, started_at, finished_at, outcome, error FROM ${attemptsTable} WHERE delivery_id = $1 ORDER BY seq`,
        [id],
      );
      return result.rows.map(toAttempt);
    },
    async list(listQuery) {
      open();
      const q = checkListQuery(listQuery);
      const { sql, args } = listSql(q, { table: inbox, param: (n) => `$${n}` });
      const rows = (await query<SummaryRow>(sql, args)).rows;
      return listPage(rows, q.limit, toSummary);
    },
    async requeue(ids: readonly string[], now = Date.now()) {
      open();
      checkRequeueIds(ids);
      if (ids.length === 0) return 0;
      const result = await query<{ n: number }>(
        `WITH free AS (
           SELECT seq FROM ${inbox} WHERE id = ANY($1::text[]) AND NOT (status = 'processing' AND lease_until > $2)
           ORDER BY seq FOR UPDATE
         ),
         lost AS (
           INSERT INTO ${attemptsTable} (delivery_id, attempt, owner, started_at, finished_at, outcome, error)
           SELECT d.id, d.attempts, d.lease_owner, d.updated_at, $2, 'lost', '${LOST_ERROR}'
           FROM ${inbox} d JOIN free ON d.seq = free.seq WHERE d.status = 'processing'
         ),
         moved AS (
           UPDATE ${inbox} d SET status = 'pending', attempts = 0, next_attempt_at = $2, lease_owner = NULL,
             lease_until = NULL, updated_at = $2
           FROM free WHERE d.seq = free.seq RETURNING 1
         )
         SELECT count(*)::int AS n FROM moved`,
        [[...new Set(ids)], now],
      );
      // No NOTIFY: requeued rows are found by the next poll (the inspector wakes its own worker at once).
      return result.rows[0]!.n;
    },
    prune,
    async backlog() {
      open();
      // Unfinished rows through the due index (they all have a next attempt time); dead rows apart.
      const result = await query<BacklogRow>(
        `SELECT status, count(*) AS n, min(received_at) AS oldest FROM ${inbox} WHERE next_attempt_at IS NOT NULL GROUP BY status`,
      );
      const dead = await query<{ n: string }>(`SELECT count(*) AS n FROM ${inbox} WHERE status = 'dead'`);
      return backlogOf(result.rows, dead.rows[0]!.n);
    },
    watch(onStored: () => void) {
      open();
      return listener.add(onStored);
    },
    async close() {
      if (closed) return;
      closed = true;
      stopPruning();
      await recordBatch.settled();
      await finishes.settled();
      await notifier.settled();
      await listener.close();
      await ready?.catch(() => undefined);
      pool.off('error', onIdleError);
      if (ownsPool) await pool.end();
    },
  };
}
