import Database from 'better-sqlite3';
import { SCHEMA_SQL } from './docs-schema.js';
import { KEY_HASHES_KIND } from './key-store.js';
import { kindVersionTriggers } from './kind-versions.js';
import { OUTBOUND_COUNTS_SQL, rebuildOutboundCounts } from './outbound-counts.js';
import { statement } from './statement.js';

/** The platform's own tables; resource records live in `docs` (Collection). */
export const PLATFORM_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS api_key_hashes (
  hash TEXT PRIMARY KEY,
  key_id TEXT NOT NULL,
  expires_at INTEGER
);
CREATE INDEX IF NOT EXISTS api_key_hashes_key ON api_key_hashes (key_id);
-- Counted as a kind (kind-versions.ts), so that the key store keeps what a value authenticates as until one changes.
${kindVersionTriggers('api_key_hashes', () => `'${KEY_HASHES_KIND}'`)}
CREATE TABLE IF NOT EXISTS idempotency (
  api_key_id TEXT NOT NULL,
  method TEXT NOT NULL,
  path TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  body_hash TEXT NOT NULL,
  status INTEGER NOT NULL,
  response TEXT,
  headers TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (api_key_id, method, path, idempotency_key)
);
CREATE INDEX IF NOT EXISTS idempotency_expiry ON idempotency (expires_at);
CREATE TABLE IF NOT EXISTS deliveries (
  id TEXT PRIMARY KEY,
  endpoint_id TEXT NOT NULL,
  event TEXT NOT NULL,
  body TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  state TEXT NOT NULL,
  next_attempt_at INTEGER,
  created_at INTEGER NOT NULL
);
-- The dispatcher's claim picks due rows from this index alone (endpoint and rowid), then reads the bodies it
-- took: reading 256 bodies per claim cost more than the POST (bench/fanout.bench.ts). Rows due in the same
-- millisecond come out in insertion order per endpoint (rowid ends every index), so one resource's events
-- leave in the order they happened; deliveries_claim ended in the random id and shuffled them.
DROP INDEX IF EXISTS deliveries_due;
DROP INDEX IF EXISTS deliveries_claim;
CREATE INDEX IF NOT EXISTS deliveries_claim_in_order ON deliveries (state, next_attempt_at, endpoint_id);
-- One endpoint's due rows, for a claim whose window is all at endpoints that cannot take more (delivery-queue.ts).
CREATE INDEX IF NOT EXISTS deliveries_endpoint_due ON deliveries (endpoint_id, state, next_attempt_at);
CREATE TABLE IF NOT EXISTS delivery_attempts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  endpoint_id TEXT NOT NULL,
  delivery_id TEXT NOT NULL,
  event TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  status_code INTEGER,
  error TEXT,
  delivered_at INTEGER,
  next_retry_at INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS delivery_attempts_endpoint ON delivery_attempts (endpoint_id, seq);
CREATE TABLE IF NOT EXISTS request_counts (
  api_key_id TEXT NOT NULL,
  minute INTEGER NOT NULL,
  requests INTEGER NOT NULL,
  server_errors INTEGER NOT NULL,
  PRIMARY KEY (api_key_id, minute)
);
`;

const OUTBOUND_COUNTS_META = 'outbound_counts_version';

/**
 * Opens (or creates) the emulator's SQLite database: `:memory:` by default, or a file that survives
 * restarts (keys, webhook endpoints, pending deliveries, every record).
 */
export function openEmulatorDatabase(path = ':memory:'): Database.Database {
  const db = new Database(path);
  if (path !== ':memory:') {
    // WAL lets the dispatcher's writes and API reads interleave; NORMAL is durable enough for an emulator.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
  }
  db.pragma('busy_timeout = 5000');
  db.exec(SCHEMA_SQL);
  db.exec(PLATFORM_SCHEMA_SQL);
  db.exec(OUTBOUND_COUNTS_SQL);
  // A file from before the counts existed: count what it holds once.
  if (readMeta(db, OUTBOUND_COUNTS_META) === undefined) {
    rebuildOutboundCounts(db);
    writeMeta(db, OUTBOUND_COUNTS_META, '1');
  }
  return db;
}

export function readMeta(db: Database.Database, name: string): string | undefined {
  return (statement(db, 'SELECT value FROM meta WHERE name = ?').get(name) as { value: string } | undefined)?.value;
}

export function writeMeta(db: Database.Database, name: string, value: string): void {
  statement(
    db,
    'INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
  ).run(name, value);
}
