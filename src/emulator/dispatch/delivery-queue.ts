import type Database from 'better-sqlite3';
import type { Page } from '../../api/schemas/page.js';
import { encodeSeqCursor } from '../../internal/seq-cursor.js';
import { decodeListCursor } from '../state/list-cursor.js';
import type { WebhookAttempt } from '../../api/schemas/webhook-endpoint.js';
import { statement } from '../state/statement.js';
import type { ClaimRound } from './slot-share.js';

/** A delivery waiting for its next attempt (one per event and endpoint; retries reuse its id). */
export interface QueuedDelivery {
  id: string;
  endpoint_id: string;
  event: string;
  /** The exact envelope bytes; every attempt sends the same body. */
  body: string;
  attempts: number;
}

/** One row of an endpoint's attempt log (GET /v1/webhooks/:id/deliveries), as the contract declares it. */
export type DeliveryAttempt = WebhookAttempt & { error: string | null };

/** Due rows looked at per claim, so a backlog at one endpoint cannot make a claim scan the whole queue. */
const CLAIM_SCAN_ROWS = 256;

/** The spec keeps the last 50 attempts per endpoint. */
export const ATTEMPT_LOG_SIZE = 50;

interface AttemptRow {
  seq: number;
  delivery_id: string;
  event: string;
  attempt: number;
  status_code: number | null;
  error: string | null;
  delivered_at: number | null;
  next_retry_at: number | null;
  created_at: number;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The persisted queue: rows survive a restart when the database is a file. */
export class DeliveryQueue {
  constructor(private readonly db: Database.Database) {}

  /** Queues deliveries made `now`; each is first due at its `due_at` (chaos may put it off), else now. */
  enqueue(
    rows: { id: string; endpoint_id: string; event: string; body: string; due_at?: number }[],
    now: number,
  ): void {
    const insert = statement(
      this.db,
      "INSERT INTO deliveries (id, endpoint_id, event, body, attempts, state, next_attempt_at, created_at) VALUES (?, ?, ?, ?, 0, 'pending', ?, ?)",
    );
    this.db.transaction(() => {
      for (const row of rows) insert.run(row.id, row.endpoint_id, row.event, row.body, row.due_at ?? now, now);
    })();
  }

  /** A restart finds deliveries that were in flight when the process stopped: they are due again. */
  recover(): void {
    statement(this.db, "UPDATE deliveries SET state = 'pending' WHERE state = 'in_flight'").run();
  }

  /**
   * Takes the pending deliveries due by `now` that `round` admits (fair dispatch: slot-share.ts), oldest first
   * per endpoint, and marks them in flight. Due rows are read oldest first across endpoints, up to
   * CLAIM_SCAN_ROWS; when that window is all at endpoints that cannot take more (a backlog at hung receivers),
   * each endpoint that can is asked for its own oldest rows, so the backlog cannot hide them.
   */
  claim(now: number, round: ClaimRound): QueuedDelivery[] {
    // With every endpoint at its share no row can be taken: the scan below would only cost (bench/fanout.bench.ts).
    if (round.full) return [];
    return this.db.transaction(() => {
      // Rowids and endpoints only, from the index deliveries_claim_in_order, read row by row until the round is
      // full (reading all CLAIM_SCAN_ROWS each time cost more than the POST); then the chosen rows' bodies.
      const chosen: number[] = [];
      const candidates = statement(
        this.db,
        "SELECT rowid AS id, endpoint_id FROM deliveries WHERE state = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?",
      ).iterate(now, CLAIM_SCAN_ROWS) as IterableIterator<{ id: number; endpoint_id: string }>;
      const chosenOf = new Map<string, number>();
      let scanned = 0;
      for (const row of candidates) {
        scanned++;
        if (round.admit(row.endpoint_id)) {
          chosen.push(row.id);
          chosenOf.set(row.endpoint_id, (chosenOf.get(row.endpoint_id) ?? 0) + 1);
        }
        if (round.full) break;
      }
      if (scanned === CLAIM_SCAN_ROWS && !round.full) {
        const ofEndpoint = statement(
          this.db,
          "SELECT rowid AS id FROM deliveries WHERE endpoint_id = ? AND state = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?",
        );
        const taken = new Set(chosen);
        for (const [endpointId, room] of round.open()) {
          // The window's rows of this endpoint were its oldest: they come first again, and are skipped.
          const rows = ofEndpoint.all(endpointId, now, room + (chosenOf.get(endpointId) ?? 0)) as { id: number }[];
          for (const row of rows) if (!taken.has(row.id) && round.admit(endpointId)) chosen.push(row.id);
          if (round.full) break;
        }
      }
      const take = statement(
        this.db,
        "UPDATE deliveries SET state = 'in_flight' WHERE rowid = ? RETURNING id, endpoint_id, event, body, attempts",
      );
      return chosen.map((id) => take.get(id) as QueuedDelivery);
    })();
  }

  hasDue(now: number): boolean {
    return (
      statement(this.db, "SELECT 1 FROM deliveries WHERE state = 'pending' AND next_attempt_at <= ? LIMIT 1").get(
        now,
      ) !== undefined
    );
  }

  /** When the next pending delivery falls due, or null when none waits. */
  nextDueAt(): number | null {
    const row = statement(
      this.db,
      "SELECT min(next_attempt_at) AS at FROM deliveries WHERE state = 'pending'",
    ).get() as { at: number | null };
    return row.at;
  }

  /**
   * Records an attempt's outcome: done on 2xx, rescheduled at `nextAttemptAt`, or given up when that is null.
   * The attempt log is trimmed to the last 50 per endpoint in the same transaction.
   */
  settle(
    delivery: QueuedDelivery,
    outcome: { statusCode: number | null; error: string | null; ok: boolean; at: number; nextAttemptAt: number | null },
  ): void {
    const attempt = delivery.attempts + 1;
    const retry = !outcome.ok && outcome.nextAttemptAt !== null;
    this.db.transaction(() => {
      // The endpoint may have been deleted while the POST was in flight: then nothing is logged.
      const updated = statement(
        this.db,
        'UPDATE deliveries SET attempts = ?, state = ?, next_attempt_at = ? WHERE id = ?',
      ).run(attempt, retry ? 'pending' : 'settled', outcome.nextAttemptAt, delivery.id).changes;
      if (updated === 0) return;
      // A running total for usage (the log itself is trimmed to 50 per endpoint).
      statement(
        this.db,
        "INSERT INTO meta (name, value) VALUES ('delivery_attempts_total', '1') ON CONFLICT (name) DO UPDATE SET value = CAST(value AS INTEGER) + 1",
      ).run();
      statement(
        this.db,
        'INSERT INTO delivery_attempts (endpoint_id, delivery_id, event, attempt, status_code, error, delivered_at, next_retry_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ).run(
        delivery.endpoint_id,
        delivery.id,
        delivery.event,
        attempt,
        outcome.statusCode,
        outcome.error,
        outcome.ok ? outcome.at : null,
        outcome.nextAttemptAt,
        outcome.at,
      );
      const trimmed = statement(
        this.db,
        'DELETE FROM delivery_attempts WHERE endpoint_id = ? AND seq <= (SELECT seq FROM delivery_attempts WHERE endpoint_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?) RETURNING delivery_id',
      ).all(delivery.endpoint_id, delivery.endpoint_id, ATTEMPT_LOG_SIZE) as { delivery_id: string }[];
      // A finished delivery (delivered, or out of retries) keeps its body while the log still shows it, so it
      // can be resent from the console; one whose last attempt just fell out of the log goes with it (at most
      // 50 per endpoint). Only those are looked at: scanning the endpoint's settled rows cost more than the POST.
      const prune = statement(
        this.db,
        "DELETE FROM deliveries WHERE id = ? AND state = 'settled' AND id NOT IN (SELECT delivery_id FROM delivery_attempts WHERE endpoint_id = ?)",
      );
      for (const id of new Set(trimmed.map((r) => r.delivery_id))) prune.run(id, delivery.endpoint_id);
    })();
  }

  /**
   * Sends a finished delivery again, now, with the same id and bytes (the console's Resend): `resent`, or
   * `in_flight` while an attempt runs or is due, or `gone` once it left the attempt log.
   */
  resend(deliveryId: string, now: number): 'resent' | 'in_flight' | 'gone' {
    const row = statement(this.db, 'SELECT state FROM deliveries WHERE id = ?').get(deliveryId) as
      | { state: string }
      | undefined;
    if (!row) return 'gone';
    if (row.state !== 'settled') return 'in_flight';
    statement(
      this.db,
      "UPDATE deliveries SET state = 'pending', attempts = 0, next_attempt_at = ? WHERE id = ? AND state = 'settled'",
    ).run(now, deliveryId);
    return 'resent';
  }

  /** A newest-first page of an endpoint's attempt log (at most the last 50 exist). */
  attempts(endpointId: string, options: { limit?: number; cursor?: string } = {}): Page<DeliveryAttempt> {
    const limit = Math.min(options.limit ?? 25, ATTEMPT_LOG_SIZE);
    const before =
      options.cursor === undefined ? Number.MAX_SAFE_INTEGER : decodeListCursor('attempts', options.cursor);
    const rows = statement(
      this.db,
      'SELECT seq, delivery_id, event, attempt, status_code, error, delivered_at, next_retry_at, created_at FROM delivery_attempts WHERE endpoint_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?',
    ).all(endpointId, before, limit + 1) as AttemptRow[];
    const hasMore = rows.length > limit;
    const data = rows.slice(0, limit);
    return {
      data: data.map(({ seq, ...r }) => ({
        ...r,
        id: `att_${seq}`,
        delivered_at: iso(r.delivered_at),
        next_retry_at: iso(r.next_retry_at),
        created_at: iso(r.created_at)!,
      })),
      pagination: {
        has_more: hasMore,
        next_cursor: hasMore ? encodeSeqCursor('attempts', data[data.length - 1]!.seq) : null,
      },
    };
  }

  /** Every attempt ever made by this emulator (usage). */
  attemptsTotal(): number {
    const row = statement(this.db, "SELECT value FROM meta WHERE name = 'delivery_attempts_total'").get() as
      | { value: string }
      | undefined;
    return row ? Number(row.value) : 0;
  }

  /** How many deliveries still wait for an attempt (for `idle()` and usage). */
  pendingCount(): number {
    return (statement(this.db, "SELECT count(*) AS n FROM deliveries WHERE state = 'pending'").get() as { n: number })
      .n;
  }
}
