import Database from 'better-sqlite3';
import { InvalidOptionError } from '../errors.js';

/**
 * `full`: each commit is fsynced before it resolves, so an acked delivery survives power loss.
 * `normal`: in WAL mode a commit survives a process crash but the last ones may be lost on power loss.
 */
export type Durability = 'full' | 'normal';

export interface OpenDatabaseOptions {
  /** @default 'full' */
  durability?: Durability;
  /** How long a writer waits for another process's lock before failing (several receivers on one file). @default 5000 */
  busyTimeoutMs?: number;
}

/**
 * Opens a SQLite file the way convo-kit uses it: WAL (readers never block the writer), a busy timeout,
 * the chosen durability and foreign keys on. Also exported for templates that need a small SQLite handle.
 * @example const db = openDatabase('./app.db');
 */
export function openDatabase(path: string, options: OpenDatabaseOptions = {}): Database.Database {
  const durability = options.durability ?? 'full';
  if (durability !== 'full' && durability !== 'normal') {
    throw new InvalidOptionError(`Expected \`durability\` to be 'full' or 'normal', got \`${String(durability)}\``);
  }
  const db = new Database(path);
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? 5000))}`);
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${durability === 'full' ? 'FULL' : 'NORMAL'}`);
    db.pragma('foreign_keys = ON');
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}
