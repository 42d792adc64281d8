import type Database from 'better-sqlite3';

/**
 * The schema, one step per version; `PRAGMA user_version` says how many have run. Append, never edit:
 * a file written by an older version is brought up to date on open.
 */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE deliveries (
     seq INTEGER PRIMARY KEY,
     id TEXT NOT NULL UNIQUE,
     event TEXT NOT NULL,
     size INTEGER NOT NULL,
     signature TEXT NOT NULL,
     timestamp TEXT NOT NULL,
     received_at INTEGER NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('pending', 'processing', 'done', 'failed', 'dead')),
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at INTEGER,
     lease_owner TEXT,
     lease_until INTEGER,
     last_error TEXT,
     updated_at INTEGER NOT NULL
   );
   -- One index serves claims: next_attempt_at is the retry time, or the lease end while processing, null when finished.
   CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE next_attempt_at IS NOT NULL;
   CREATE INDEX deliveries_done ON deliveries (updated_at) WHERE status = 'done';
   -- Bodies apart, keyed by the delivery's seq: every status change rewrites a small row, not the payload.
   CREATE TABLE delivery_bodies (
     seq INTEGER PRIMARY KEY REFERENCES deliveries (seq) ON DELETE CASCADE,
     body BLOB NOT NULL
   );
   CREATE TABLE delivery_attempts (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     delivery_id TEXT NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
     attempt INTEGER NOT NULL,
     owner TEXT NOT NULL,
     started_at INTEGER NOT NULL,
     finished_at INTEGER,
     outcome TEXT CHECK (outcome IN ('done', 'failed', 'dead', 'lost')),
     error TEXT
   );
   CREATE INDEX delivery_attempts_delivery ON delivery_attempts (delivery_id, seq);`,
  // 2: the receiver's tables are its inbox, so that no table shares a name with the emulator's outbound
  // `deliveries`. RENAME carries the rows and rewrites the foreign keys; indexes cannot be renamed, so they
  // are created again under the new names.
  `ALTER TABLE deliveries RENAME TO inbox;
   ALTER TABLE delivery_bodies RENAME TO inbox_bodies;
   ALTER TABLE delivery_attempts RENAME TO inbox_attempts;
   DROP INDEX deliveries_due;
   DROP INDEX deliveries_done;
   DROP INDEX delivery_attempts_delivery;
   CREATE INDEX inbox_due ON inbox (next_attempt_at) WHERE next_attempt_at IS NOT NULL;
   CREATE INDEX inbox_done ON inbox (updated_at) WHERE status = 'done';
   CREATE INDEX inbox_attempts_delivery ON inbox_attempts (delivery_id, seq);`,
  // 3: the signed event id is a unique key too (a replay under a new delivery id is a duplicate). Rows
  // stored before keep their event id where their body has one; of older duplicates the first keeps it.
  `ALTER TABLE inbox ADD COLUMN event_id TEXT;
   UPDATE inbox SET event_id = (
     SELECT CASE WHEN json_valid(CAST(b.body AS TEXT)) AND json_type(CAST(b.body AS TEXT), '$.id') = 'text'
                 THEN json_extract(CAST(b.body AS TEXT), '$.id') END
     FROM inbox_bodies b WHERE b.seq = inbox.seq);
   UPDATE inbox SET event_id = NULL
     WHERE event_id IS NOT NULL AND seq NOT IN (SELECT min(seq) FROM inbox WHERE event_id IS NOT NULL GROUP BY event_id);
   CREATE UNIQUE INDEX inbox_event_id ON inbox (event_id);`,
  // 4: the step journal (ctx.step), keyed by the event and the step's name. No foreign key to the inbox:
  // prune deletes a delivery's steps itself, so the journal does not depend on how inbox rows are keyed.
  `CREATE TABLE inbox_steps (
     seq INTEGER PRIMARY KEY,
     event_key TEXT NOT NULL,
     name TEXT NOT NULL,
     delivery_id TEXT NOT NULL,
     attempt INTEGER NOT NULL,
     outcome TEXT NOT NULL CHECK (outcome IN ('done', 'failed')),
     result TEXT,
     error TEXT,
     started_at INTEGER NOT NULL,
     finished_at INTEGER NOT NULL,
     UNIQUE (event_key, name)
   );
   CREATE INDEX inbox_steps_delivery ON inbox_steps (delivery_id, seq);`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Runs the missing migrations in one immediate transaction, so two processes opening one file do not race.
 * A file already current is only read: opening it takes no write lock, so it never waits on a busy writer.
 */
export function migrate(db: Database.Database): void {
  if (db.pragma('user_version', { simple: true }) === MIGRATIONS.length) return;
  db.transaction(() => {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > MIGRATIONS.length) {
      throw new Error(
        `Delivery database schema version ${version} is newer than this convo-kit understands (${MIGRATIONS.length}); upgrade convo-kit`,
      );
    }
    for (let v = version; v < MIGRATIONS.length; v++) db.exec(MIGRATIONS[v]!);
    db.pragma(`user_version = ${MIGRATIONS.length}`);
  }).immediate();
}
