// A SQLite delivery store in a directory of its own, removed afterwards: what the commit parts of the
// bench measure on (commit-cost.ts, id-order-cost.ts).
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStore, type Durability } from '../src/store/index.js';
import type { IdOrder } from './bench-config.js';
import { benchId } from './signed-deliveries.js';

/** Records `rows` new 1 KiB deliveries in one turn of the event loop, so they share one commit (group commit). */
export type CommitRows = (rows: number) => Promise<void>;

/**
 * `withoutIndex` drops one of the store's indexes before the measurement (the event id's unique index: what
 * a layout with one unique key per row would save, were the delivery id's lookups free).
 */
export async function withScratchStore<T>(
  durability: Durability,
  ids: IdOrder,
  measure: (commitRows: CommitRows) => Promise<T>,
  options: { withoutIndex?: 'inbox_event_id' } = {},
): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'convo-kit-commit-'));
  const path = join(dir, 'c.db');
  const store = createSqliteStore({ path, durability, pruneDoneAfterMs: null });
  if (options.withoutIndex) {
    const db = new Database(path);
    db.exec(`DROP INDEX ${options.withoutIndex}`);
    db.close();
  }
  const body = randomBytes(1024);
  let n = 0;
  const record = () => {
    n++;
    return store.record({
      id: benchId('dlv', ids, n),
      eventId: benchId('evt', ids, n),
      event: 'message.received',
      body,
      signature: 'sha256=',
      timestamp: '0',
      receivedAt: Date.now(),
    });
  };
  try {
    return await measure(async (rows) => {
      await Promise.all(Array.from({ length: rows }, record));
    });
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
