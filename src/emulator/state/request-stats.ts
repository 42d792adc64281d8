import type Database from 'better-sqlite3';
import { statement } from './statement.js';

/** Requests that arrived without a valid key are counted under this id. */
export const ANONYMOUS = '';

const MINUTE_MS = 60_000;
/** Per-minute rows older than this are swept, so the table stays bounded. */
const RETENTION_MS = 31 * 24 * 3600 * 1000;
/** `error_rate` stays null until at least this many requests were seen in the period (too little history). */
export const ERROR_RATE_MIN_REQUESTS = 100;
/** The period `error_rate` looks back over. */
export const ERROR_RATE_PERIOD_MS = 24 * 3600 * 1000;

/** Counts are written to the table at most this often: one transaction a second, not an upsert per request. */
const FLUSH_INTERVAL_MS = 1000;

interface PendingCounts {
  /** `[api_key_id, minute]` -> counts not yet in the table. */
  rows: Map<string, { apiKeyId: string; minute: number; requests: number; serverErrors: number }>;
  timer: NodeJS.Timeout | undefined;
  /** The last hour whose first flush swept old rows. */
  sweptHour: number;
}

const pendingByDb = new WeakMap<Database.Database, PendingCounts>();

function pendingOf(db: Database.Database): PendingCounts {
  let pending = pendingByDb.get(db);
  if (!pending) pendingByDb.set(db, (pending = { rows: new Map(), timer: undefined, sweptHour: -1 }));
  return pending;
}

/**
 * Counts every API request per key and emulator-clock minute (the platform writes, usage, limits and
 * status read). The minute matches the rate limiter's fixed window. The count is kept in memory and written
 * within FLUSH_INTERVAL_MS (readers add what is not written yet): an upsert on every request was 3% of the
 * emulator's CPU under load (issue 25, point 8).
 */
export function recordRequest(db: Database.Database, apiKeyId: string, now: number, serverError: boolean): void {
  const minute = Math.floor(now / MINUTE_MS);
  const pending = pendingOf(db);
  const slot = `${minute} ${apiKeyId}`;
  const row = pending.rows.get(slot);
  if (row) {
    row.requests += 1;
    row.serverErrors += serverError ? 1 : 0;
  } else pending.rows.set(slot, { apiKeyId, minute, requests: 1, serverErrors: serverError ? 1 : 0 });
  pending.timer ??= setTimeout(() => {
    try {
      flushRequestCounts(db);
    } catch {
      // The database is unavailable; /v1/status reports that, counting can wait (these counts are lost).
    }
  }, FLUSH_INTERVAL_MS).unref();
}

/** Writes the counts kept in memory to the table (before an export reads it, and before the database closes). */
export function flushRequestCounts(db: Database.Database): void {
  const pending = pendingByDb.get(db);
  if (!pending) return;
  clearTimeout(pending.timer);
  pending.timer = undefined;
  if (pending.rows.size === 0 || !db.open) return;
  const rows = [...pending.rows.values()];
  pending.rows.clear();
  const upsert = statement(
    db,
    `INSERT INTO request_counts (api_key_id, minute, requests, server_errors) VALUES (?, ?, ?, ?)
       ON CONFLICT (api_key_id, minute) DO UPDATE SET requests = requests + excluded.requests, server_errors = server_errors + excluded.server_errors`,
  );
  db.transaction(() => {
    for (const row of rows) upsert.run(row.apiKeyId, row.minute, row.requests, row.serverErrors);
    // Sweeping once an hour keeps the delete off almost every flush.
    const latest = Math.max(...rows.map((row) => row.minute));
    const hour = Math.floor(latest / 60);
    if (hour !== pending.sweptHour) {
      pending.sweptHour = hour;
      statement(db, 'DELETE FROM request_counts WHERE minute < ?').run(latest - RETENTION_MS / MINUTE_MS);
    }
  })();
}

/** Forgets every count (a reset to the seed, an import), written or not. */
export function clearRequestStats(db: Database.Database): void {
  const pending = pendingByDb.get(db);
  if (pending) {
    clearTimeout(pending.timer);
    pending.timer = undefined;
    pending.rows.clear();
  }
  statement(db, 'DELETE FROM request_counts').run();
}

export interface RequestStats {
  requests: number;
  serverErrors: number;
}

/** Totals over `[since, now]` (all time when `since` is absent), for one key or every key. */
export function requestStats(db: Database.Database, options: { apiKeyId?: string; since?: number } = {}): RequestStats {
  const since = Math.floor((options.since ?? 0) / MINUTE_MS);
  const stats = statement(
    db,
    `SELECT coalesce(sum(requests), 0) AS requests, coalesce(sum(server_errors), 0) AS serverErrors FROM request_counts
       WHERE minute >= ? AND (? IS NULL OR api_key_id = ?)`,
  ).get(since, options.apiKeyId ?? null, options.apiKeyId ?? null) as RequestStats;
  for (const row of pendingByDb.get(db)?.rows.values() ?? []) {
    if (row.minute < since || (options.apiKeyId !== undefined && row.apiKeyId !== options.apiKeyId)) continue;
    stats.requests += row.requests;
    stats.serverErrors += row.serverErrors;
  }
  return stats;
}

/** Requests `apiKeyId` made in the current rate-limit window (the clock's minute). */
export function requestsThisWindow(db: Database.Database, apiKeyId: string, now: number): number {
  return requestStats(db, { apiKeyId, since: now - (now % MINUTE_MS) }).requests;
}

/** Share of 5xx answers over the last 24 h, or null while fewer than 100 requests make the figure meaningless. */
export function errorRate(db: Database.Database, now: number): number | null {
  const stats = requestStats(db, { since: now - ERROR_RATE_PERIOD_MS });
  if (stats.requests < ERROR_RATE_MIN_REQUESTS) return null;
  return Math.round((stats.serverErrors / stats.requests) * 10_000) / 10_000;
}
