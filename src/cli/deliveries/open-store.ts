import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { type DeliveryStore } from '../../store/index.js';
import { CliError } from '../cli-error.js';
import { DB_ENV } from '../common-options.js';

/**
 * Opens an existing delivery database for reading or replaying. It never creates one (a typo in --db
 * would otherwise look like "no deliveries"), and it never prunes: inspecting changes nothing.
 * The store module (and better-sqlite3) is imported here, lazily, so light commands start fast.
 */
export async function openExistingStore(path: string): Promise<DeliveryStore> {
  const absolute = resolve(path);
  if (!existsSync(absolute)) {
    throw new CliError('NOT_FOUND', `No delivery database at ${absolute}.`, {
      hint: `Deliveries are stored by \`convo-kit listen --db <file>\`; run it first, or point --db (or ${DB_ENV}) at the file it wrote.`,
    });
  }
  const { createSqliteStore } = await import('../../store/index.js');
  try {
    return createSqliteStore({ path: absolute, pruneDoneAfterMs: null });
  } catch (cause) {
    throw new CliError('FAILED', `Cannot open ${absolute} as a delivery database: ${(cause as Error).message}`, {
      cause,
      hint: 'Is it the file `convo-kit listen --db` wrote? Another program may be holding a lock on it.',
    });
  }
}

/** Runs `work` with the store open and always closes it. */
export async function withStore<T>(path: string, work: (store: DeliveryStore) => Promise<T>): Promise<T> {
  const store = await openExistingStore(path);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}
