import pg from 'pg';

/** The local server `.ci/run` starts (trust auth, database `test`): tried when CONVO_KIT_PG_URL is not set. */
export const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/test';
/** How long the probe of the default server waits: a local server answers in milliseconds, even under load. */
const PROBE_TIMEOUT_MS = 5_000;

/** Whether a server answers at `url`: one connection and `SELECT 1`, bounded by PROBE_TIMEOUT_MS. */
async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: PROBE_TIMEOUT_MS });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * vitest's global setup, once per run before any test file: without CONVO_KIT_PG_URL, the PostgreSQL tests
 * use the local default server when it answers (set in the environment, which every test worker and the
 * receiver processes they start inherit), and only when it does not, they skip and this says so in one line.
 */
export default async function setup(): Promise<void> {
  if (process.env.CONVO_KIT_PG_URL) return;
  if (await answers(DEFAULT_PG_URL)) {
    process.env.CONVO_KIT_PG_URL = DEFAULT_PG_URL;
    return;
  }
  console.warn(
    `PostgreSQL tests skipped: no server answers at ${DEFAULT_PG_URL}; start one there, or set CONVO_KIT_PG_URL=postgres://user@host:5432/db`,
  );
}
