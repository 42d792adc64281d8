import type { Cell } from './row-cells.js';

export type DeliveryStatus = 'pending' | 'processing' | 'done' | 'failed' | 'dead';

/** A delivery as the inspector's list route answers it (inspector-api.ts builds it). */
export interface DeliveryRow {
  id: string;
  event: string;
  status: DeliveryStatus;
  /** Attempts since it was received or last replayed (the store counts a replay's attempts afresh). */
  attempts: number;
  size: number;
  received_at: string;
  updated_at: string;
  next_attempt_at: string | null;
  last_error: string | null;
}

/** The list shows an error's start (it may run to 2000 characters); the delivery's own view has it whole. */
const LISTED_ERROR_CHARS = 300;

export const statusText = (status: DeliveryStatus) => (status === 'dead' ? 'dead letter' : status);

/** The inspector's list row: pick box, received, event, status, attempts, id, last error. */
export function deliveryCells(d: DeliveryRow): Cell[] {
  const error = d.last_error ?? '';
  return [
    { pick: { value: d.id, label: `select ${d.id}` } },
    { text: d.received_at, at: d.received_at },
    { text: d.event, className: 'event', breakAfter: '._' },
    { text: statusText(d.status), className: `status status-${d.status}` },
    { text: String(d.attempts) },
    { text: d.id, className: 'mono' },
    {
      text: error.length > LISTED_ERROR_CHARS ? `${error.slice(0, LISTED_ERROR_CHARS - 1)}…` : error,
      className: 'error',
    },
  ];
}

/** One attempt in a delivery's view; `run` is 0 for the attempts before any replay, then 1, 2… per replay. */
export interface AttemptRow {
  attempt: number;
  run: number;
  outcome: 'done' | 'failed' | 'dead' | 'lost' | null;
  error: string | null;
  started_at: string;
  finished_at: string | null;
}

/** A journaled step in a delivery's view (store/step-json.ts). */
export interface StepRow {
  name: string;
  attempt: number;
  outcome: string;
  started_at: string;
  finished_at: string;
  result_bytes: number;
  error: string | null;
}

/** One delivery in full, as the inspector's delivery route answers it. */
export interface DeliveryDetail extends Omit<DeliveryRow, 'attempts'> {
  dead_letter: boolean;
  headers: Record<string, string>;
  body: { json: unknown } | { text: string };
  attempts: AttemptRow[];
  steps: StepRow[];
}

/**
 * Which replay each attempt belongs to: the store numbers a replay's attempts from 1 again (AttemptRecord in
 * store/delivery-store.ts), so a number that does not go up starts the next replay. Oldest first.
 */
export function replayRuns(attempts: readonly { attempt: number }[]): number[] {
  let run = 0;
  return attempts.map((a, i) => {
    if (i > 0 && a.attempt <= attempts[i - 1]!.attempt) run += 1;
    return run;
  });
}

/** An attempt's name that stays unambiguous across replays: "attempt 2", then "replay 1, attempt 1". */
export const attemptLabel = (a: Pick<AttemptRow, 'attempt' | 'run'>) =>
  a.run === 0 ? `attempt ${a.attempt}` : `replay ${a.run}, attempt ${a.attempt}`;

/** What the inspector page's script is given (inspector-page.ts writes it). */
export interface InspectorPageData {
  /** Where the inspector is mounted: its API is under `${base}/api`. */
  base: string;
  nextCursor: string | null;
  /** At most this many ids per replay request (REPLAY_MAX_IDS). */
  replayMax: number;
  /** At most this many rows in the list (INSPECTOR_MAX_ROWS). */
  maxRows: number;
}
