import type { DeliveryStore } from './delivery-store.js';
import { createSqliteStoreCore } from './sqlite-store-core.js';
import type { SqliteStoreOptions } from './sqlite-store-options.js';
import { createThreadedSqliteStore } from './threaded-sqlite-store.js';
import { InvalidOptionError } from '../errors.js';

export type { SqliteStoreOptions };

/**
 * The embedded delivery store: one SQLite file in WAL mode. Several receiver processes may share the
 * file: claims run in IMMEDIATE transactions, so each row is leased to one of them at a time. With
 * `thread: true` its statements run on a thread of its own (README "Durability").
 * @example const store = createSqliteStore({ path: './deliveries.db' });
 */
export function createSqliteStore(options: SqliteStoreOptions): DeliveryStore {
  if (typeof options?.path !== 'string' || options.path === '') {
    throw new InvalidOptionError(`Expected \`path\` to be a database file path, got \`${String(options?.path)}\``);
  }
  return options.thread === true ? createThreadedSqliteStore(options) : createSqliteStoreCore(options);
}
