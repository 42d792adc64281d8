import type pg from 'pg';
import { SpacedCalls } from './spaced-calls.js';

/**
 * NOTIFYs at most this often per store. Every NOTIFY wakes the worker of every process sharing the inbox,
 * and each woken worker with room claims: with 4 processes each recording small batches, that was 4
 * claims per batch stored. An idle worker still hears of the first row at once.
 */
const NOTIFY_SPACING_MS = 20;

/**
 * Wakes the idle workers of every process sharing the inbox (their StoredListener) after rows were
 * stored: one NOTIFY, sent after the rows committed, in a transaction of its own. A NOTIFY inside the
 * recording transaction made PostgreSQL serialize every notifying commit of the cluster, fsync included
 * (it holds a global lock from NOTIFY's pre-commit to the end of the commit), so processes recording at
 * once waited for each other's disk. This one commits asynchronously (a NOTIFY lost to a crash costs a
 * poll, no data), holds no ack, and is coalesced: at most one in flight, and at most one per
 * NOTIFY_SPACING_MS. A process that dies between the commit and the NOTIFY leaves its rows to the poll.
 */
export class StoredNotifier {
  private readonly sql: string;
  private readonly spaced = new SpacedCalls(() => this.send(), NOTIFY_SPACING_MS);
  private sending: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly pool: pg.Pool,
    channel: string,
  ) {
    this.sql = `BEGIN; SET LOCAL synchronous_commit = off; NOTIFY "${channel.replace(/"/g, '""')}"; COMMIT`;
  }

  notify(): void {
    this.spaced.call();
  }

  private send(): void {
    if (this.sending) {
      this.again = true;
      return;
    }
    // A failure (the server is down) is the poll's to make up for, like a lost NOTIFY.
    this.sending = this.pool.query(this.sql).then(
      () => this.sent(),
      () => this.sent(),
    );
  }

  private sent(): void {
    this.sending = undefined;
    if (!this.again) return;
    this.again = false;
    this.spaced.call();
  }

  /** Sends a NOTIFY still waiting, and resolves once none is in flight (before the pool ends). */
  async settled(): Promise<void> {
    this.spaced.flush();
    while (this.sending) await this.sending;
  }
}
