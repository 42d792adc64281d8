// What one commit costs on this disk, FULL vs NORMAL, for 1 row and for 100 rows: the numbers behind
// group commit and the default durability.
import type { Durability } from '../src/store/index.js';
import { withScratchStore } from './scratch-store.js';

const COMMITS = 200;

function microsPerCommit(durability: Durability, rowsPerCommit: number): Promise<number> {
  return withScratchStore(durability, 'sequential', async (commitRows) => {
    const started = process.hrtime.bigint();
    for (let c = 0; c < COMMITS; c++) await commitRows(rowsPerCommit);
    return Number(process.hrtime.bigint() - started) / 1000 / COMMITS;
  });
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
