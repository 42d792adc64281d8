import type {
  AttemptOutcome,
  AttemptRecord,
  Backlog,
  DeliveryRecord,
  DeliveryStatus,
  DeliverySummary,
} from './delivery-store.js';
import type { StepOutcome, StepRecord } from './step-journal.js';

/** Column lists and row mappers of the delivery tables; SQLite and PostgreSQL name their columns alike. */
export const SUMMARY_COLUMNS =
  'seq, id, event, size, received_at, status, attempts, next_attempt_at, lease_owner, lease_until, last_error, updated_at';
export const RECORD_COLUMNS = `${SUMMARY_COLUMNS}, signature, timestamp`;

export interface SummaryRow {
  seq: number;
  id: string;
  event: string;
  size: number;
  received_at: number;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: number | null;
  lease_owner: string | null;
  lease_until: number | null;
  last_error: string | null;
  updated_at: number;
}

export interface RecordRow extends SummaryRow {
  signature: string;
  timestamp: string;
}

export interface AttemptRow {
  delivery_id: string;
  attempt: number;
  owner: string;
  started_at: number;
  finished_at: number | null;
  outcome: AttemptOutcome | null;
  error: string | null;
}

export function toSummary(row: SummaryRow): DeliverySummary {
  return {
    id: row.id,
    event: row.event,
    size: row.size,
    receivedAt: row.received_at,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    leaseOwner: row.lease_owner,
    leaseUntil: row.lease_until,
    lastError: row.last_error,
    updatedAt: row.updated_at,
  };
}

export function toRecord(row: RecordRow, body: Buffer): DeliveryRecord {
  return { ...toSummary(row), body, signature: row.signature, timestamp: row.timestamp };
}

export function toAttempt(row: AttemptRow): AttemptRecord {
  return {
    deliveryId: row.delivery_id,
    attempt: row.attempt,
    owner: row.owner,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    outcome: row.outcome,
    error: row.error,
  };
}

export const STEP_COLUMNS = 'event_key, name, delivery_id, attempt, outcome, result, error, started_at, finished_at';

export interface StepRow {
  event_key: string;
  name: string;
  delivery_id: string;
  attempt: number;
  outcome: StepOutcome;
  result: string | null;
  error: string | null;
  started_at: number;
  finished_at: number;
}

export function toStep(row: StepRow): StepRecord {
  return {
    eventKey: row.event_key,
    name: row.name,
    deliveryId: row.delivery_id,
    attempt: row.attempt,
    outcome: row.outcome,
    result: row.result,
    error: row.error,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

/** A step's fields as the journal's columns (STEP_COLUMNS order), for an INSERT. */
export function stepValues(step: StepRecord): unknown[] {
  return [
    step.eventKey,
    step.name,
    step.deliveryId,
    step.attempt,
    step.outcome,
    step.result,
    step.error,
    step.startedAt,
    step.finishedAt,
  ];
}

/** One status's line of the backlog query: its count and its oldest `received_at`. */
export interface BacklogRow {
  status: DeliveryStatus;
  n: number | string;
  oldest: number | string | null;
}

/** The backlog from its per-status lines (PostgreSQL answers bigint counts as strings) and the dead count. */
export function backlogOf(rows: readonly BacklogRow[], dead: number | string): Backlog {
  const backlog: Backlog = { pending: 0, retrying: 0, processing: 0, dead: Number(dead), oldestReceivedAt: null };
  for (const row of rows) {
    const n = Number(row.n);
    if (row.status === 'pending') backlog.pending += n;
    else if (row.status === 'failed') backlog.retrying += n;
    else if (row.status === 'processing') backlog.processing += n;
    else continue;
    const oldest = row.oldest === null ? null : Number(row.oldest);
    if (oldest !== null && (backlog.oldestReceivedAt === null || oldest < backlog.oldestReceivedAt))
      backlog.oldestReceivedAt = oldest;
  }
  return backlog;
}
