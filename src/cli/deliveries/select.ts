import { Option, InvalidArgumentError, type Command } from 'commander';
// subscription.js alone: the catalog (and zod) is not needed to check a pattern.
import { isEventPattern } from '../../events/index.js';
import { type DeliveryStatus, type DeliveryStore, type DeliverySummary } from '../../store/index.js';
import { parseInteger, parseTimeBound } from '../parse-options.js';

/** The store's statuses, spelled out here so this light module does not load the store (and SQLite). */
export const STATUSES = [
  'pending',
  'processing',
  'done',
  'failed',
  'dead',
] as const satisfies readonly DeliveryStatus[];
/** The store's page size ceiling: selections page through it. */
const PAGE_LIMIT = 500;
/** Bounds one command's selection, whatever the store holds. */
export const MAX_SELECTION = 100_000;

export interface SelectionOptions {
  status?: DeliveryStatus[];
  event?: string;
  since?: number;
  until?: number;
  limit: number;
}

/** `--status failed,dead` or repeated; `all` means any status. */
function parseStatuses(value: string, previous: DeliveryStatus[] | undefined): DeliveryStatus[] | undefined {
  const wanted = value.split(',').map((s) => s.trim());
  if (wanted.includes('all')) return [...STATUSES];
  for (const status of wanted) {
    if (!(STATUSES as readonly string[]).includes(status)) {
      throw new InvalidArgumentError(
        `Expected ${STATUSES.join(', ')} or all (comma-separated or repeated), got \`${status}\`.`,
      );
    }
  }
  return [...new Set([...(previous ?? []), ...(wanted as DeliveryStatus[])])];
}

function parsePattern(value: string): string {
  if (!isEventPattern(value)) {
    throw new InvalidArgumentError(
      `Expected an event name (ticket.created), \`*\` or a namespace wildcard (message.*), got \`${value}\`.`,
    );
  }
  return value;
}

/** The filter options shared by `deliveries list` and `replay`. */
export function addSelectionOptions(command: Command, defaults: { limit: number; status?: string }): Command {
  return command
    .addOption(
      new Option('--status <status>', `${STATUSES.join('|')}|all; comma-separated or repeated`)
        .argParser(parseStatuses)
        .default(undefined, defaults.status),
    )
    .option('--event <pattern>', 'an event name, * or a namespace wildcard such as ticket.*', parsePattern)
    .option('--since <when>', 'received at or after: a duration ago (30m, 1h, 2d) or an ISO date', parseTimeBound())
    .option('--until <when>', 'received before: a duration ago or an ISO date', parseTimeBound())
    .option(
      '--limit <n>',
      `at most this many, newest first (up to ${MAX_SELECTION})`,
      parseInteger(1, MAX_SELECTION),
      defaults.limit,
    );
}

/** Pages through the store, newest first, until `limit` rows; `more` says whether rows beyond it matched. */
export async function selectDeliveries(
  store: DeliveryStore,
  options: SelectionOptions,
): Promise<{ rows: DeliverySummary[]; more: boolean }> {
  const rows: DeliverySummary[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await store.list({
      status: options.status,
      eventPattern: options.event,
      since: options.since,
      until: options.until,
      limit: Math.min(PAGE_LIMIT, options.limit - rows.length + 1),
      cursor,
    });
    rows.push(...page.data);
    if (rows.length > options.limit) return { rows: rows.slice(0, options.limit), more: true };
    if (!page.nextCursor) return { rows, more: false };
    cursor = page.nextCursor;
  }
}
