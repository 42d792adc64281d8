import type pg from 'pg';

/**
 * The schema, one step per version, each a function of the (quoted) schema name. Append, never edit:
 * a database set up by an older version is brought up to date when a store opens it.
 */
export const POSTGRES_MIGRATIONS: readonly ((schema: string) => string)[] = [
  (s) => `
    CREATE TABLE ${s}.inbox (
      seq bigserial PRIMARY KEY,
      id text NOT NULL UNIQUE,
      event text NOT NULL,
      size integer NOT NULL,
      signature text NOT NULL,
      timestamp text NOT NULL,
      received_at bigint NOT NULL,
      status text NOT NULL CHECK (status IN ('pending', 'processing', 'done', 'failed', 'dead')),
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at bigint,
      lease_owner text,
      lease_until bigint,
      last_error text,
      updated_at bigint NOT NULL
    );
    -- One index serves claims: next_attempt_at is the retry time, or the lease end while processing, null when finished.
    CREATE INDEX inbox_due ON ${s}.inbox (next_attempt_at) WHERE next_attempt_at IS NOT NULL;
    CREATE INDEX inbox_done ON ${s}.inbox (updated_at) WHERE status = 'done';
    -- Bodies apart: every status change writes a new version of a small row, not of the payload.
    CREATE TABLE ${s}.inbox_bodies (
      seq bigint PRIMARY KEY REFERENCES ${s}.inbox (seq) ON DELETE CASCADE,
      body bytea NOT NULL
    );
    CREATE TABLE ${s}.inbox_attempts (
      seq bigserial PRIMARY KEY,
      delivery_id text NOT NULL REFERENCES ${s}.inbox (id) ON DELETE CASCADE,
      attempt integer NOT NULL,
      owner text NOT NULL,
      started_at bigint NOT NULL,
      finished_at bigint,
      outcome text CHECK (outcome IN ('done', 'failed', 'dead', 'lost')),
      error text
    );
    CREATE INDEX inbox_attempts_delivery ON ${s}.inbox_attempts (delivery_id, seq);
    -- Wakes idle workers in every process (LISTEN) once per statement that stored at least one delivery.
    CREATE FUNCTION ${s}.notify_inbox_stored() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM stored) THEN
        PERFORM pg_notify(TG_TABLE_SCHEMA || '.inbox', '');
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER inbox_stored AFTER INSERT ON ${s}.inbox
      REFERENCING NEW TABLE AS stored FOR EACH STATEMENT EXECUTE FUNCTION ${s}.notify_inbox_stored();`,
  // 2: the signed event id is a unique key too (a replay under a new delivery id is a duplicate). Rows
  // stored before keep their event id where their body has one; of older duplicates the first keeps it.
  (s) => `
    ALTER TABLE ${s}.inbox ADD COLUMN event_id text UNIQUE;
    DO $$
    DECLARE r record; v text;
    BEGIN
      FOR r IN SELECT b.seq, b.body FROM ${s}.inbox_bodies b ORDER BY b.seq LOOP
        BEGIN
          v := CASE WHEN jsonb_typeof(convert_from(r.body, 'UTF8')::jsonb -> 'id') = 'string'
                    THEN convert_from(r.body, 'UTF8')::jsonb ->> 'id' END;
        EXCEPTION WHEN others THEN v := NULL; -- not UTF-8 JSON: no event id
        END;
        UPDATE ${s}.inbox SET event_id = v
          WHERE seq = r.seq AND v IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ${s}.inbox WHERE event_id = v);
      END LOOP;
    END $$;`,
  // 3: the store NOTIFYs after the recording commit (stored-notifier.ts), not from a trigger inside it.
  (s) => `
    DROP TRIGGER inbox_stored ON ${s}.inbox;
    DROP FUNCTION ${s}.notify_inbox_stored();`,
  // 4: the step journal (ctx.step), keyed by the event and the step's name. No foreign key to the inbox:
  // prune deletes a delivery's steps itself, so the journal does not depend on how inbox rows are keyed.
  (s) => `
    CREATE TABLE ${s}.inbox_steps (
      seq bigserial PRIMARY KEY,
      event_key text NOT NULL,
      name text NOT NULL,
      delivery_id text NOT NULL,
      attempt integer NOT NULL,
      outcome text NOT NULL CHECK (outcome IN ('done', 'failed')),
      result text,
      error text,
      started_at bigint NOT NULL,
      finished_at bigint NOT NULL,
      UNIQUE (event_key, name)
    );
    CREATE INDEX inbox_steps_delivery ON ${s}.inbox_steps (delivery_id, seq);`,
];

export const POSTGRES_SCHEMA_VERSION = POSTGRES_MIGRATIONS.length;

/** The channel the store NOTIFYs on and LISTENs to: one per schema, so separate inboxes never wake each other. */
export const storedChannel = (schemaName: string) => `${schemaName}.inbox`;

async function versionOf(client: pg.PoolClient, schema: string): Promise<number | null> {
  const table = await client.query<{ exists: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS exists`, [
    `${schema}.convo_kit_schema`,
  ]);
  if (!table.rows[0]!.exists) return null;
  const result = await client.query<{ version: number }>(
    `SELECT max(version) AS version FROM ${schema}.convo_kit_schema`,
  );
  return result.rows[0]!.version ?? 0;
}

function tooNew(version: number): Error {
  return new Error(
    `Delivery database schema version ${version} is newer than this convo-kit understands (${POSTGRES_MIGRATIONS.length}); upgrade convo-kit`,
  );
}

/**
 * Runs the missing migrations in one transaction under an advisory lock on the schema's name, so that N
 * processes starting at once migrate once: the others wait for the lock, then find nothing left to do.
 * `create: false` only checks, for readers that must not create an inbox (the CLI).
 */
export async function migratePostgres(pool: pg.Pool, schema: string, options: { create: boolean }): Promise<void> {
  const client = await pool.connect();
  let failed = false;
  try {
    if (!options.create) {
      const version = await versionOf(client, schema);
      if (version === null) throw new Error(`No convo-kit delivery schema ${schema} in this database`);
      if (version > POSTGRES_MIGRATIONS.length) throw tooNew(version);
      if (version < POSTGRES_MIGRATIONS.length)
        throw new Error(`The delivery schema ${schema} is at version ${version}; start a receiver once to migrate it`);
      return;
    }
    await client.query('BEGIN');
    await client.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`convo-kit:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${schema}.convo_kit_schema (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const version = (await versionOf(client, schema)) ?? 0;
    if (version > POSTGRES_MIGRATIONS.length) throw tooNew(version);
    for (let v = version; v < POSTGRES_MIGRATIONS.length; v++) {
      await client.query(POSTGRES_MIGRATIONS[v]!(schema));
      await client.query(`INSERT INTO ${schema}.convo_kit_schema (version) VALUES ($1)`, [v + 1]);
    }
    await client.query('COMMIT');
  } catch (error) {
    failed = true;
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    // A failed connection is not handed to the next caller.
    client.release(failed);
  }
}
