import { REQUEUE_MAX_IDS, type ClaimOptions, type DeliverySummary } from './delivery-store.js';
import { encodeCursor } from './list-query.js';
import { MAX_STEP_NAME_CHARS, MAX_STEP_RESULT_BYTES, StepOutcome, type StepRecord } from './step-journal.js';
import { DeliveryStoreError } from './store-error.js';
import { InvalidOptionError } from '../errors.js';

/** What every store shares beyond the interface: option checks, limits and the words it stores. */

const DAY_MS = 24 * 60 * 60 * 1000;
export const PRUNE_EVERY_MS = 60 * 60 * 1000;
/** Rows deleted per statement, so pruning a large backlog never holds a long lock. */
export const PRUNE_CHUNK = 5000;
/** last_error and attempt errors are for humans; a handler that throws a megabyte is cut short. */
export const MAX_ERROR_CHARS = 2000;
export const LOST_ERROR =
  'lease expired before the attempt finished: the process stopped or the handler overran its lease';

/** The lease options every store checks before it claims or renews, with the option named. */
export function checkLease(options: Pick<ClaimOptions, 'leaseMs' | 'owner'>): void {
  if (!(Number.isFinite(options.leaseMs) && options.leaseMs > 0))
    throw new InvalidOptionError(`Expected \`leaseMs\` to be a positive number, got \`${String(options.leaseMs)}\``);
  if (typeof options.owner !== 'string' || options.owner === '')
    throw new InvalidOptionError('Expected `owner` to be a non-empty string');
}

export function checkClaimLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 0)
    throw new InvalidOptionError(`Expected \`limit\` to be a whole number, got \`${String(limit)}\``);
}

/** The bound on ids of one requeue or clearSteps call (`what` names the call). */
export function checkRequeueIds(ids: readonly string[], what = 'requeue'): void {
  if (ids.length > REQUEUE_MAX_IDS)
    throw new DeliveryStoreError(
      'INVALID_QUERY',
      `${what} takes at most ${REQUEUE_MAX_IDS} ids at once, got ${ids.length}`,
    );
}

/**
 * A step row checked before any store writes it (the receiver's step runner checks first, with the step
 * named; this guards a store called directly), its error cut to what the store keeps.
 */
export function checkedStep<S extends Pick<StepRecord, 'name' | 'eventKey' | 'deliveryId'> & Partial<StepRecord>>(
  step: S,
): S {
  const { name, eventKey, deliveryId, result } = step;
  if (typeof name !== 'string' || name === '' || name.length > MAX_STEP_NAME_CHARS)
    throw new InvalidOptionError(
      `Expected a step \`name\` of 1 to ${MAX_STEP_NAME_CHARS} characters, got \`${String(name).slice(0, 50)}\``,
    );
  for (const [field, value] of [
    ['eventKey', eventKey],
    ['deliveryId', deliveryId],
  ] as const)
    if (typeof value !== 'string' || value === '')
      throw new InvalidOptionError(`Expected step \`${field}\` to be a non-empty string`);
  if (step.outcome !== undefined && !StepOutcome.safeParse(step.outcome).success)
    throw new InvalidOptionError(`Expected step \`outcome\` to be done or failed, got \`${String(step.outcome)}\``);
  if (result != null && (typeof result !== 'string' || Buffer.byteLength(result) > MAX_STEP_RESULT_BYTES))
    throw new DeliveryStoreError(
      'INVALID_QUERY',
      `A step's result must be JSON text of at most ${MAX_STEP_RESULT_BYTES} bytes`,
    );
  return step.error == null ? step : { ...step, error: String(step.error).slice(0, MAX_ERROR_CHARS) };
}

/**
 * The shortest `pruneDoneAfterMs`: a done row is what makes a retry (the service's last comes about 11
 * minutes after the first attempt, docs/webhook-deliveries.md) or a captured delivery replayed under a
 * new delivery id (signed within the 5-minute tolerance) a duplicate. Pruned sooner, either runs the
 * handlers again.
 */
export const MIN_PRUNE_AFTER_MS = 60 * 60 * 1000;

/** How long done rows are kept unless `pruneDoneAfterMs` says otherwise: the service's retries and manual replays still find them. */
export const DEFAULT_PRUNE_AFTER_MS = 7 * DAY_MS;

/** `pruneDoneAfterMs` checked: done rows are kept 7 days by default. */
export function pruneAfterOption(value: number | null | undefined): number | null {
  const pruneAfter = value === undefined ? DEFAULT_PRUNE_AFTER_MS : value;
  if (pruneAfter !== null && !(Number.isFinite(pruneAfter) && pruneAfter >= MIN_PRUNE_AFTER_MS)) {
    throw new InvalidOptionError(
      `Expected \`pruneDoneAfterMs\` to be null or at least ${MIN_PRUNE_AFTER_MS} ms (1 hour: done rows are what make retries and replays duplicates), got \`${String(pruneAfter)}\``,
    );
  }
  return pruneAfter;
}

/** Runs `prune` on open and then hourly (or sooner for short windows); answers a stop function. */
export function schedulePruning(pruneAfter: number | null, prune: (olderThan: number) => void): () => void {
  if (pruneAfter === null) return () => undefined;
  const run = () => prune(Date.now() - pruneAfter);
  const timer = setInterval(run, Math.min(PRUNE_EVERY_MS, Math.max(pruneAfter, 1000)));
  timer.unref();
  run();
  return () => clearInterval(timer);
}

/** A list page from rows fetched one past the limit: the extra row says another page follows. */
export function listPage<R extends { seq: number }>(
  rows: R[],
  limit: number,
  toSummary: (row: R) => DeliverySummary,
): { data: DeliverySummary[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  return {
    data: page.map(toSummary),
    nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]!.seq) : null,
  };
}
