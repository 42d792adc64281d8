// The PostgreSQL side of the benchmark: is the server there, a schema of its own per run (dropped
// after), and the CPU time of the server's backends serving a run.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inboxLocation } from '../src/cli/deliveries/inbox-location.js';
import { PG_URL } from './bench-config.js';
import { ownTicks, statFileFields } from '../test/support/process-tree.js';

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

/** The URL a run's receivers connect with: the schema's name as application_name, so its backends can be found. */
export function runPgUrl(schema: string): string {
  const url = new URL(PG_URL);
  url.searchParams.set('application_name', schema);
  return url.toString();
}

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '']);
const ticksPerSecond = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
  } catch {
    return NaN;
  }
})();

/**
 * CPU time (user + system, µs) the server's backends for a run's connections have used so far, read
 * from /proc: only for a server on this machine (Linux), else undefined. The WAL writer is not counted.
 */
export async function backendCpuMicros(schema: string): Promise<number | undefined> {
  if (!LOCAL_HOSTS.has(new URL(PG_URL).hostname) || !Number.isFinite(ticksPerSecond)) return undefined;
  const { rows } = await withClient((client) =>
    client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [schema]),
  );
  let ticks = 0;
  for (const { pid } of rows) {
    const fields = statFileFields(`/proc/${pid}/stat`);
    if (fields === undefined) return undefined;
    ticks += ownTicks(fields);
  }
  return (ticks / ticksPerSecond) * 1e6;
}
