import { z } from 'zod';

/**
 * How a journaled step ended: `done` (its result is kept and every later attempt of the event gets it back
 * without running it), or `failed` (it threw; kept only to show where an attempt stopped, it runs again).
 */
export const StepOutcome = z.enum(['done', 'failed']);
export type StepOutcome = z.output<typeof StepOutcome>;

/** A step's result as the journal keeps it: JSON text, at most this many bytes of UTF-8 (one row, read back whole on every attempt). */
export const MAX_STEP_RESULT_BYTES = 64 * 1024;
/** A step's name, in characters: names are keys, written by hand or derived from a route id and an ordinal. */
export const MAX_STEP_NAME_CHARS = 200;
/** Steps of one event: a handler that loops over steps without end stops here, and a journal read is bounded. */
export const MAX_STEPS_PER_EVENT = 1000;

/** One step of one event, as the journal keeps it. Times are ms since the epoch. */
export interface StepRecord {
  /** The event the step belongs to: its signed event id, or the delivery id when the body has none. */
  eventKey: string;
  name: string;
  /** The stored delivery whose attempt ran it (what the inspector and `deliveries show` list by). */
  deliveryId: string;
  attempt: number;
  outcome: StepOutcome;
  /** The result as JSON text; null when the step returned nothing (`undefined`) or failed. */
  result: string | null;
  /** Why a failed step failed (redacted, cut to MAX_ERROR_CHARS); null once done. */
  error: string | null;
  startedAt: number;
  finishedAt: number;
}

/** A step about to run in a transaction: the journal row without its ending. */
export type StepStart = Omit<StepRecord, 'outcome' | 'result' | 'error' | 'finishedAt'>;

/** How a transaction step's `run` ended: its result as JSON text (null for none), and when. */
export interface StepFinish {
  result: string | null;
  finishedAt: number;
}

/** What a PostgreSQL transaction step hands the user: pg's PoolClient, seen through the one method most need. */
export interface TransactionClient {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }>;
}

/**
 * The step journal (ctx.step, ctx.client, ctx.transaction), kept by every DeliveryStore beside its inbox.
 * Rows are keyed by (eventKey, name); a done row is never overwritten, so the first attempt to finish a
 * step fixes its result for every attempt after it.
 */
export interface StepJournal {
  /** The steps journaled for one event (done and failed), in the order they were first written; at most MAX_STEPS_PER_EVENT. */
  steps(eventKey: string): Promise<StepRecord[]>;
  /**
   * Journals one step's outcome unless that step is already done, and answers the row as stored: `step`
   * itself, or the done row of another attempt that got there first (whose result then stands).
   */
  saveStep(step: StepRecord): Promise<StepRecord>;
  /** The steps the attempts of one stored delivery ran, in order (the inspector, `deliveries show`). */
  deliverySteps(deliveryId: string): Promise<StepRecord[]>;
  /** Forgets the steps of these deliveries, so a replay runs them again (`replay --rerun-steps`); answers how many rows went. */
  clearSteps(deliveryIds: readonly string[]): Promise<number>;
  /**
   * Optional (the PostgreSQL store): runs `run` inside a transaction on the store's own database and
   * journals `step` as done in the same transaction, with the JSON `run` answers as its result. The user's
   * writes and the record that the step happened commit together or not at all. When the step is done
   * already (another process finished it first), `run` does not run and the stored row is the answer.
   */
  stepTransaction?(step: StepStart, run: (client: TransactionClient) => Promise<StepFinish>): Promise<StepRecord>;
}
