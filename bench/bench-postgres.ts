// The PostgreSQL side of the benchmark: is the server there, and a schema of its own per run, dropped after.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inboxLocation } from '../src/cli/deliveries/inbox-location.js';
import { PG_URL } from './bench-config.js';

const CONNECT_TIMEOUT_MS = 3000;

/** The URL as printed: the password never reaches the terminal. */
export const shownPgUrl = () => inboxLocation(PG_URL).shown;

async function withClient<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Why the PostgreSQL rows cannot run, or undefined when the server answers. */
export async function postgresUnavailable(): Promise<string | undefined> {
  try {
    await withClient((client) => client.query('SELECT 1'));
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message || error.name : String(error);
  }
}

/** A fresh schema name for one run; the receivers create it (migrating once between them). */
export const benchSchema = (processes: number) => `bench_${processes}p_${randomBytes(4).toString('hex')}`;

export async function dropSchemas(names: readonly string[]): Promise<void> {
  if (names.length === 0) return;
  await withClient(async (client) => {
    for (const name of names) await client.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
  });
}
