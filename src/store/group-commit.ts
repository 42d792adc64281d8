import type Database from 'better-sqlite3';

interface Pending {
  op: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Bounds the time one transaction holds the event loop; the rest wait for the next turn. */
const MAX_OPS_PER_COMMIT = 1000;

/**
 * Group commit: writes asked for during one turn of the event loop run in ONE transaction, and each
 * caller resolves only after that commit. A commit (and its fsync) costs about the same for 1 row or
 * 100, so concurrent deliveries share it and each is still acked only once it is durable.
 */
export class GroupCommit {
  private queue: Pending[] = [];
  private scheduled = false;
  private flushing: Promise<void> = Promise.resolve();
  private readonly durable = new Set<Promise<unknown>>();

  /** @param afterCommit makes a commit durable before anyone is answered (see WalSync) */
  constructor(
    private readonly db: Database.Database,
    private readonly afterCommit?: () => Promise<void>,
  ) {}

  run<T>(op: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ op, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) this.schedule();
    });
  }

  private schedule(): void {
    this.scheduled = true;
    // setImmediate runs after the poll phase: every request read in this turn has joined the batch.
    this.flushing = new Promise((done) => setImmediate(() => {
      this.flush();
      done();
    }));
  }

  /** Resolves once everything asked for so far is committed (or rejected). */
  async settled(): Promise<void> {
    while (this.scheduled) await this.flushing;
    await Promise.allSettled([...this.durable]);
  }

  private flush(): void {
    const batch = this.queue.splice(0, MAX_OPS_PER_COMMIT);
    this.scheduled = false;
    if (this.queue.length > 0) this.schedule();
    const results: { ok: boolean; value: unknown }[] = [];
    try {
      this.db.transaction(() => {
        for (const item of batch) {
          // One failing statement (SQLite rolls back just that statement) must not sink the others.
          try {
            results.push({ ok: true, value: item.op() });
          } catch (error) {
            results.push({ ok: false, value: error });
          }
        }
      }).immediate();
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    const answer = () => batch.forEach((item, i) => (results[i]!.ok ? item.resolve(results[i]!.value) : item.reject(results[i]!.value)));
    if (!this.afterCommit) return answer();
    const durable = this.afterCommit().then(answer, (error: unknown) => batch.forEach((item) => item.reject(error)));
    this.durable.add(durable);
    void durable.finally(() => this.durable.delete(durable));
  }
}
