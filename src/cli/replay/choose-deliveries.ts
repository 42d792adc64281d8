import { matchesPattern } from '../../events/index.js';
import { type DeliveryStore, type DeliverySummary } from '../../store/index.js';
import { CliError } from '../cli-error.js';
import { selectDeliveries, type SelectionOptions } from '../deliveries/select.js';

export interface ChoiceOptions extends SelectionOptions {
  id?: string[];
}

/** Replays pick failures by default: dead rows (given up). Naming ids picks them whatever their status. */
const DEFAULT_STATUS = ['dead'] as const;

function matches(row: DeliverySummary, options: ChoiceOptions): boolean {
  return (
    (!options.status || options.status.includes(row.status)) &&
    (!options.event || matchesPattern(options.event, row.event)) &&
    (options.since === undefined || row.receivedAt >= options.since) &&
    (options.until === undefined || row.receivedAt < options.until)
  );
}

/** What a replay runs, oldest first (the order they arrived in), with `more` when --limit cut the list. */
export async function chooseDeliveries(
  store: DeliveryStore,
  options: ChoiceOptions,
): Promise<{ rows: DeliverySummary[]; more: boolean }> {
  if (!options.id?.length) {
    const { rows, more } = await selectDeliveries(store, { ...options, status: options.status ?? [...DEFAULT_STATUS] });
    return { rows: rows.reverse(), more };
  }
  const ids = [...new Set(options.id)];
  if (ids.length > options.limit)
    throw new CliError('USAGE', `${ids.length} ids given but --limit is ${options.limit}; raise --limit.`);
  const found = await Promise.all(ids.map((id) => store.get(id)));
  const missing = ids.filter((_id, i) => !found[i]);
  if (missing.length) {
    throw new CliError('NOT_FOUND', `No stored delivery with id ${missing.join(', ')}.`, {
      hint: 'List what is stored with `convo-kit deliveries list`.',
    });
  }
  const rows = found.filter((row): row is NonNullable<typeof row> => row !== undefined && matches(row, options));
  return { rows: rows.sort((a, b) => a.receivedAt - b.receivedAt || a.id.localeCompare(b.id)), more: false };
}
