import { existsSync } from 'node:fs';
import { MissingPackageError } from '../../internal/optional-package.js';
import { type DeliveryStore } from '../../store/index.js';
import { CliError } from '../cli-error.js';
import { DB_ENV } from '../common-options.js';
import { inboxLocation, storeAt } from './inbox-location.js';

/** What to check when a postgres:// --db does not open (listen, deliveries, replay). */
export const POSTGRES_HINT =
  'Is the PostgreSQL server up, and does the URL name the right user, password and database?';

/**
 * Opens an existing delivery database (a SQLite file or a postgres:// URL) for reading or replaying. It
 * never creates one (a typo in --db would otherwise look like "no deliveries"), and it never prunes:
 * inspecting changes nothing.
 */
export async function openExistingStore(db: string): Promise<DeliveryStore> {
  const location = inboxLocation(db);
  if (location.kind === 'sqlite' && !existsSync(location.path)) {
    throw new CliError('NOT_FOUND', `No delivery database at ${location.shown}.`, {
      hint: `Deliveries are stored by \`convo-kit listen --db <file>\`; run it first, or point --db (or ${DB_ENV}) at the file it wrote.`,
    });
  }
  try {
    return await storeAt(location, { existing: true });
  } catch (cause) {
    if (cause instanceof MissingPackageError) throw cause; // its one line says what to install; no server hint
    const message = (cause as Error).message;
    if (location.kind === 'postgres' && /No convo-kit delivery schema/.test(message)) {
      throw new CliError('NOT_FOUND', `No delivery inbox in ${location.shown}: ${message}.`, {
        hint: 'Deliveries are stored there by a receiver on that database (or `convo-kit listen --db postgres://…`); add ?schema=<name> if it uses its own schema.',
      });
    }
    throw new CliError('FAILED', `Cannot open ${location.shown} as a delivery database: ${message}`, {
      cause,
      hint:
        location.kind === 'sqlite'
          ? 'Is it the file `convo-kit listen --db` wrote? Another program may be holding a lock on it.'
          : POSTGRES_HINT,
    });
  }
}

/** Runs `work` with the store open and always closes it. */
export async function withStore<T>(db: string, work: (store: DeliveryStore) => Promise<T>): Promise<T> {
  const store = await openExistingStore(db);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}
