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

/**
 * Counts every API request per key and emulator-clock minute (the platform writes, usage, limits and
 * status read). The minute matches the rate limiter's fixed window.
 */
export function recordRequest(db: Database.Database, apiKeyId: string, now: number, serverError: boolean): void {
  const minute = Math.floor(now / MINUTE_MS);
  const row = statement(
    db,
    `INSERT INTO request_counts (api_key_id, minute, requests, server_errors) VALUES (?, ?, 1, ?)
       ON CONFLICT (api_key_id, minute) DO UPDATE SET requests = requests + 1, server_errors = server_errors + excluded.server_errors
       RETURNING requests`,
  ).get(apiKeyId, minute, serverError ? 1 : 0) as { requests: number };
  // Sweeping on a key's first request of each hour keeps the delete off almost every request.
  if (row.requests === 1 && minute % 60 === 0) {
    statement(db, 'DELETE FROM request_counts WHERE minute < ?').run(Math.floor((now - RETENTION_MS) / MINUTE_MS));
  }
}

/** Forgets every count (a reset to the seed). */
export function clearRequestStats(db: Database.Database): void {
  statement(db, 'DELETE FROM request_counts').run();
}

export interface RequestStats {
  requests: number;
  serverErrors: number;
}

/** Totals over `[since, now]` (all time when `since` is absent), for one key or every key. */
export function requestStats(db: Database.Database, options: { apiKeyId?: string; since?: number } = {}): RequestStats {
  const row = statement(
    db,
    `SELECT coalesce(sum(requests), 0) AS requests, coalesce(sum(server_errors), 0) AS serverErrors FROM request_counts
       WHERE minute >= ? AND (? IS NULL OR api_key_id = ?)`,
  ).get(
    Math.floor((options.since ?? 0) / MINUTE_MS),
    options.apiKeyId ?? null,
    options.apiKeyId ?? null,
  ) as RequestStats;
  return row;
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
