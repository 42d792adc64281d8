import { z } from 'zod';
import { queryInteger, Timestamp } from '../../api/schemas/common.js';
import { isEventPattern } from '../../events/index.js';
import { DeliveryStatus, type DeliveryStore, type DeliverySummary } from '../../store/index.js';
import { redactedBody } from '../../internal/redact-body.js';
import { shownError } from '../../internal/redact-text.js';
import { stepJson } from '../../store/step-json.js';
import { replayRuns, type DeliveryDetail, type DeliveryRow } from '../browser/delivery-row.js';

/** The list filters the page sends; every one is optional, and each bad one is named in the error. */
export const InspectorListQuery = z.strictObject({
  status: z.union([DeliveryStatus, z.literal('all')]).default('all'),
  event: z
    .string()
    .max(100)
    .refine(
      (p) => p === '' || isEventPattern(p),
      'expected an event name, "*" or a namespace wildcard such as "ticket.*"',
    )
    .default(''),
  /** Received within the last this-many minutes. */
  within: queryInteger(1, 525_600).optional(),
  /** Received before this time: how the page jumps past the rows it holds (INSPECTOR_MAX_ROWS). */
  before: Timestamp.optional(),
  limit: queryInteger(1, 200).default(50),
  cursor: z.string().max(200).optional(),
});

/**
 * At most this many rows in the page's list (its "Older deliveries" clicks stop there): every refresh reloads them
 * all, so the page stays quick with any number stored. Past it the page offers the filters and a jump by time.
 */
export const INSPECTOR_MAX_ROWS = 500;

/** At most this many deliveries replayed by one click, so one request never runs unbounded work. */
export const REPLAY_MAX_IDS = 100;
export const ReplayRequest = z.strictObject({
  ids: z.array(z.string().min(1).max(200)).min(1).max(REPLAY_MAX_IDS),
});

/** `queued`: handed to the receiver's running worker, the list shows how it ends. */
export type InspectorReplayOutcome = 'done' | 'dead' | 'busy' | 'missing' | 'queued';

export interface InspectorSource {
  store: DeliveryStore;
  /** Runs one stored delivery's handlers now (the receiver's `replay`). */
  replay(deliveryId: string): Promise<InspectorReplayOutcome>;
  /** @default Date.now */
  now?: () => number;
}

/**
 * The service's event names are short, but a body's `event` may be any string up to the body limit: a list
 * row carries its first characters, so 200 rows of them stay small (the delivery's own view has it whole).
 */
const MAX_LISTED_EVENT_CHARS = 200;
const listedEvent = (event: string) =>
  event.length > MAX_LISTED_EVENT_CHARS ? `${event.slice(0, MAX_LISTED_EVENT_CHARS)}…` : event;

/** A delivery as the list shows it: times as ISO strings, so the page formats them in the viewer's zone. */
function row(d: DeliverySummary): DeliveryRow {
  return {
    id: d.id,
    event: listedEvent(d.event),
    status: d.status,
    attempts: d.attempts,
    size: d.size,
    received_at: new Date(d.receivedAt).toISOString(),
    updated_at: new Date(d.updatedAt).toISOString(),
    next_attempt_at: d.nextAttemptAt === null ? null : new Date(d.nextAttemptAt).toISOString(),
    last_error: shownError(d.lastError),
  };
}

export async function listDeliveries(source: InspectorSource, query: z.output<typeof InspectorListQuery>) {
  const now = (source.now ?? Date.now)();
  const page = await source.store.list({
    status: query.status === 'all' ? undefined : query.status,
    eventPattern: query.event || undefined,
    since: query.within === undefined ? undefined : now - query.within * 60_000,
    until: query.before === undefined ? undefined : Date.parse(query.before),
    limit: query.limit,
    cursor: query.cursor,
  });
  return { data: page.data.map(row), next_cursor: page.nextCursor };
}

/**
 * One delivery in full: headers as they arrived with the signature redacted, the body with secret-looking
 * fields redacted, its attempts, and the steps its handlers journaled (name, outcome, when; a result's size,
 * not the result, which may hold what the body's redaction would hide).
 */
export async function showDelivery(source: InspectorSource, id: string): Promise<DeliveryDetail | undefined> {
  const record = await source.store.get(id);
  if (!record) return undefined;
  const [attempts, steps] = await Promise.all([source.store.attempts(id), source.store.deliverySteps(id)]);
  const runs = replayRuns(attempts);
  return {
    ...row(record),
    event: record.event,
    dead_letter: record.status === 'dead',
    headers: {
      'X-Service-Delivery': record.id,
      'X-Service-Event': record.event,
      'X-Service-Timestamp': record.timestamp,
      'X-Service-Signature': '[redacted]',
    },
    body: redactedBody(record.body),
    attempts: attempts.map((a, i) => ({
      attempt: a.attempt,
      run: runs[i]!,
      outcome: a.outcome,
      error: shownError(a.error),
      started_at: new Date(a.startedAt).toISOString(),
      finished_at: a.finishedAt === null ? null : new Date(a.finishedAt).toISOString(),
    })),
    steps: steps.map(stepJson),
  };
}

/** Replays each id in turn (handlers run one delivery at a time, as a person clicked them). */
export async function replayDeliveries(source: InspectorSource, ids: readonly string[]) {
  const results: { id: string; outcome: InspectorReplayOutcome }[] = [];
  for (const id of new Set(ids)) results.push({ id, outcome: await source.replay(id) });
  return { results };
}
