// What the order of the deliveries' ids costs the SQLite store: the service's ids are random, so each new
// row's keys land on a different page of each unique index (delivery id, event id), and every commit
// writes those pages again; a counter's ids all land on the last page. A third line drops the event id's
// index: the most a layout with one unique key per row could save (README "Durability", "One unique key
// per row"). Bytes written come from the kernel's count for this process (Linux /proc/self/io), so they
// do not depend on what else runs.
import { readFileSync } from 'node:fs';
import type { IdOrder } from './bench-config.js';
import { withScratchStore } from './scratch-store.js';

/** Rows already stored when the measured commits start: a few days of a busy receiver, pruned. */
const STORED_ROWS = 100_000;
const ROWS_PER_COMMIT = 20;
const COMMITS = 300;

/** Bytes this process has caused to be written to disk so far; undefined where /proc is not there. */
function writtenBytes(): number | undefined {
  try {
    return Number(/^write_bytes: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))![1]);
  } catch {
    return undefined;
  }
}

function costPerRow(order: IdOrder, withoutIndex?: 'inbox_event_id') {
  return withScratchStore(
    'full',
    order,
    async (commitRows) => {
      for (let stored = 0; stored < STORED_ROWS; stored += 1000) await commitRows(1000);
      const bytesBefore = writtenBytes();
      const cpuBefore = process.cpuUsage();
      for (let c = 0; c < COMMITS; c++) await commitRows(ROWS_PER_COMMIT);
      const cpu = process.cpuUsage(cpuBefore);
      const bytesAfter = writtenBytes();
      const rows = COMMITS * ROWS_PER_COMMIT;
      return {
        cpuMicros: (cpu.user + cpu.system) / rows,
        writtenKiB:
          bytesBefore === undefined || bytesAfter === undefined ? undefined : (bytesAfter - bytesBefore) / rows / 1024,
      };
    },
    { withoutIndex },
  );
}

export async function idOrderCosts(): Promise<void> {
  const runs: { order: IdOrder; label: string; withoutIndex?: 'inbox_event_id' }[] = [
    { order: 'sequential', label: 'sequential ids' },
    { order: 'random', label: 'random     ids' },
    // The delivery id's index stays whatever the layout: the inspector, the CLI, replay and
    // processBeforeResponse find rows by it, and a duplicate delivery id is refused by it (README "Durability").
    { order: 'random', label: 'random     ids, the event id index dropped', withoutIndex: 'inbox_event_id' },
  ];
  for (const { order, label, withoutIndex } of runs) {
    const { cpuMicros, writtenKiB } = await costPerRow(order, withoutIndex);
    console.log(
      `${label}, a store of ${STORED_ROWS.toLocaleString('en')} rows, ${ROWS_PER_COMMIT} rows per commit: ` +
        `${cpuMicros.toFixed(0)} µs of CPU per row (all threads), ` +
        `${writtenKiB === undefined ? 'bytes written not known here' : `${writtenKiB.toFixed(1)} KiB written per row`}`,
    );
  }
  console.log('');
}
