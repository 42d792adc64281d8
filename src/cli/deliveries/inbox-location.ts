import { resolve } from 'node:path';
import type { DeliveryStore } from '../../store/index.js';
import { CliError } from '../cli-error.js';

/** What --db names: a SQLite file, or a PostgreSQL database (`postgres://…`, `?schema=` picks the inbox's schema). */
export type InboxLocation =
  | { kind: 'sqlite'; path: string; shown: string }
  | { kind: 'postgres'; connectionString: string; schema: string | undefined; shown: string };

const POSTGRES_URL = /^postgres(?:ql)?:\/\//i;

export function inboxLocation(db: string): InboxLocation {
  if (!POSTGRES_URL.test(db)) {
    const path = resolve(db);
    return { kind: 'sqlite', path, shown: path };
  }
  let url: URL;
  try {
    url = new URL(db);
  } catch {
    throw new CliError('USAGE', '--db looks like a postgres:// URL but does not parse.', {
      hint: 'Write it as postgres://user:password@host:5432/database (percent-encode special characters in the password).',
    });
  }
  const schema = url.searchParams.get('schema') ?? undefined;
  url.searchParams.delete('schema');
  const connectionString = url.toString();
  // The password never reaches the terminal.
  if (url.password) url.password = '***';
  if (schema) url.searchParams.set('schema', schema);
  return { kind: 'postgres', connectionString, schema, shown: url.toString() };
}

/**
 * A store on the location, checked to be reachable. `existing`: readers never create an inbox (a typo would look like "no
 * deliveries") and never prune. The store modules (better-sqlite3, pg) load here, lazily, so light
 * commands start fast.
 */
export async function storeAt(location: InboxLocation, options: { existing: boolean }): Promise<DeliveryStore> {
  const housekeeping = options.existing ? { pruneDoneAfterMs: null } : {};
  if (location.kind === 'sqlite') {
    const { createSqliteStore } = await import('../../store/index.js');
    return createSqliteStore({ path: location.path, ...housekeeping });
  }
  const { createPostgresStore } = await import('../../store/postgres/index.js');
  const store = createPostgresStore({
    connectionString: location.connectionString,
    schema: location.schema,
    migrate: !options.existing,
    ...housekeeping,
  });
  // PostgreSQL connects lazily: one small read says now whether the server and the inbox are there.
  try {
    await store.list({ limit: 1 });
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}
