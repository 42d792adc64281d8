// A SQLite delivery store in a directory of its own, removed afterwards: what the commit parts of the
// bench measure on (commit-cost.ts, id-order-cost.ts).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStore, type Durability } from '../src/store/index.js';
import type { IdOrder } from './bench-config.js';
import { benchId } from './signed-deliveries.js';

/** Records `rows` new 1 KiB deliveries in one turn of the event loop, so they share one commit (group commit). */
export type CommitRows = (rows: number) => Promise<void>;

export async function withScratchStore<T>(
  durability: Durability,
  ids: IdOrder,
  measure: (commitRows: CommitRows) => Promise<T>,
): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'convo-kit-commit-'));
  const store = createSqliteStore({ path: join(dir, 'c.db'), durability, pruneDoneAfterMs: null });
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
