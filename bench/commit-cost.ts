// What one commit costs on this disk, FULL vs NORMAL, for 1 row and for 100 rows: the numbers behind
// group commit and the default durability.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStore, type Durability } from '../src/store/index.js';

const COMMITS = 200;

async function microsPerCommit(durability: Durability, rowsPerCommit: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'convo-kit-commit-'));
  const store = createSqliteStore({ path: join(dir, 'c.db'), durability, pruneDoneAfterMs: null });
  const body = randomBytes(1024);
  try {
    const started = process.hrtime.bigint();
    for (let c = 0; c < COMMITS; c++) {
      // Calls made in one turn share one transaction (group commit).
      await Promise.all(
        Array.from({ length: rowsPerCommit }, (_, i) =>
          store.record({
            id: `dlv_${c}_${i}`,
            eventId: `evt_${c}_${i}`,
            event: 'message.received',
            body,
            signature: 'sha256=',
            timestamp: '0',
            receivedAt: Date.now(),
          }),
        ),
      );
    }
    return Number(process.hrtime.bigint() - started) / 1000 / COMMITS;
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function commitCosts(): Promise<void> {
  for (const durability of ['normal', 'full'] as const) {
    const one = await microsPerCommit(durability, 1);
    const hundred = await microsPerCommit(durability, 100);
    console.log(
      `synchronous=${durability.toUpperCase().padEnd(6)} one commit of 1 row: ${Math.round(one)} µs; of 100 rows: ${Math.round(hundred)} µs (${(hundred / 100).toFixed(1)} µs per row)`,
    );
  }
  console.log('');
}
