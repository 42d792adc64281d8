import { err, out } from '../output.js';
import { deliveriesTable, summaryJson } from './format.js';
import { withStore } from './open-store.js';
import { selectDeliveries, type SelectionOptions } from './select.js';

export interface ListOptions extends SelectionOptions {
  db: string;
  json?: boolean;
}

export async function listDeliveries(options: ListOptions): Promise<void> {
  const { rows, more } = await withStore(options.db, (store) => selectDeliveries(store, options));
  if (options.json) {
    out.json(rows.map(summaryJson));
  } else if (rows.length === 0) {
    out.line('No deliveries match.');
  } else {
    for (const line of deliveriesTable(rows)) out.line(line);
  }
  if (more)
    err.line(err.c.dim(`More deliveries match than the ${options.limit} shown; narrow the filters or raise --limit.`));
}
