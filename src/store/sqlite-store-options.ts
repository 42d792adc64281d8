import type { Durability } from './open-database.js';

export interface SqliteStoreOptions {
  /** The database file; created with its schema when absent. `:memory:` works for tests (one process only). */
  path: string;
  /**
   * `full`: every write is on stable storage before it resolves, so an acked delivery survives power
   * loss; `normal` (WAL) survives a process crash only. `full` stays cheap: writes of one event-loop
   * turn share one commit (group commit), and the WAL fsync runs on libuv's thread pool, shared by every
   * commit made while one is running, so the event loop never waits for the disk (README "Durability").
   * @default 'full'
   */
  durability?: Durability;
  /** Done rows older than this are pruned (hourly). Days, so the service's retries and manual replays still find them; at least 1 hour, since a pruned row no longer makes a replay a duplicate (and at least twice the `toleranceSeconds` of a receiver given this store). `null` keeps everything. @default 7 days */
  pruneDoneAfterMs?: number | null;
  /** How long a write waits for another process's lock on the file. @default 5000 */
  busyTimeoutMs?: number;
  /**
   * Run the store's SQLite work on a thread of its own, one thread for every such store of the process
   * (README "Durability"). The event loop then only hands deliveries over and hears back once they are
   * committed: no statement, commit, or wait for another process's lock on the file (up to
   * `busyTimeoutMs`) holds it. That costs some CPU in all for the hand-over, so it pays where the event
   * loop is the limit and a core is free, or where several processes share the file.
   * @default false
   */
  thread?: boolean;
}
