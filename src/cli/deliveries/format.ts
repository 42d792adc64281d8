import { shownError } from '../../internal/redact-text.js';
import { type AttemptRecord, type DeliveryStatus, type DeliverySummary, type StepRecord } from '../../store/index.js';
import { out, table } from '../output.js';

/** `2025-11-21T09:00:00Z`: UTC, to the second, the same in every terminal. */
export function formatTime(ms: number | null): string {
  return ms === null ? '-' : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function paintStatus(status: string, text = status): string {
  const color: Record<DeliveryStatus, (s: string) => string> = {
    done: out.c.green,
    failed: out.c.yellow,
    dead: out.c.red,
    pending: out.c.cyan,
    processing: out.c.cyan,
  };
  return (color[status as DeliveryStatus] ?? String)(text);
}

export function shorten(text: string | null, max: number): string {
  if (!text) return '';
  const line = text.replace(/\s+/g, ' ');
  return line.length <= max ? line : line.slice(0, max - 1) + '…';
}

/**
 * The signature header is shown by its scheme alone (`sha256=…`): no part of the value is ever printed,
 * since terminal output gets copied around.
 */
export function redactSignature(signature: string): string {
  const scheme = /^[a-z0-9]{1,16}=/i.exec(signature)?.[0] ?? '';
  return `${scheme}… (redacted)`;
}

export function deliveriesTable(rows: readonly DeliverySummary[]): string[] {
  const STATUS_COLUMN = 1;
  return table(
    ['RECEIVED', 'STATUS', 'EVENT', 'DELIVERY ID', 'ATTEMPTS', 'LAST ERROR'],
    rows.map((r) => [
      formatTime(r.receivedAt),
      r.status,
      r.event,
      r.id,
      String(r.attempts),
      shorten(shownError(r.lastError), 60),
    ]),
    (column, cell, padded) => (column === STATUS_COLUMN ? paintStatus(cell, padded) : padded),
  );
}

export function attemptsTable(attempts: readonly AttemptRecord[]): string[] {
  return table(
    ['#', 'STARTED', 'FINISHED', 'OUTCOME', 'OWNER', 'ERROR'],
    attempts.map((a) => [
      String(a.attempt),
      formatTime(a.startedAt),
      formatTime(a.finishedAt),
      a.outcome ?? 'running',
      a.owner,
      shorten(shownError(a.error), 80),
    ]),
    (column, cell, padded) => (column === 3 ? paintStatus(cell, padded) : padded),
  );
}

/** A delivery's journaled steps as `deliveries show` prints them. */
export function stepsTable(steps: readonly StepRecord[]): string[] {
  return table(
    ['STEP', 'OUTCOME', 'FINISHED', '#', 'RESULT', 'ERROR'],
    steps.map((s) => [
      shorten(s.name, 60),
      s.outcome,
      formatTime(s.finishedAt),
      String(s.attempt),
      s.result === null ? '-' : `${Buffer.byteLength(s.result)} B`,
      shorten(shownError(s.error), 80),
    ]),
    (column, cell, padded) => (column === 1 ? paintStatus(cell, padded) : padded),
  );
}

/** What --json prints for a delivery summary: times as ISO strings, so scripts need no epoch arithmetic. */
export function summaryJson(r: DeliverySummary): Record<string, unknown> {
  return {
    id: r.id,
    event: r.event,
    status: r.status,
    attempts: r.attempts,
    size: r.size,
    received_at: new Date(r.receivedAt).toISOString(),
    next_attempt_at: r.nextAttemptAt === null ? null : new Date(r.nextAttemptAt).toISOString(),
    last_error: shownError(r.lastError),
    updated_at: new Date(r.updatedAt).toISOString(),
  };
}
