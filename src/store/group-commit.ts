import type Database from 'better-sqlite3';

interface Pending {
  op: () => unknown;
  /** Answer only once the commit is on stable storage (an ack depends on it). */
  durable: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Bounds the time one transaction holds the event loop; the rest wait for the next turn. */
const MAX_OPS_PER_COMMIT = 1000;

/**
 * Group commit: writes asked for during one turn of the event loop run in ONE transaction, and each
 * caller resolves only after that commit. A commit (and its fsync) costs about the same for 1 row or
 * 100, so concurrent deliveries share it and each is still acked only once it is durable.
 * Only writes that an answer depends on wait for (and cause) the fsync: the worker's bookkeeping
 * (claims, done, retry times) resolves at commit, because losing one on power loss only runs a
 * handler again, which at-least-once delivery allows anyway.
 */
export class GroupCommit {
  private queue: Pending[] = [];
  private scheduled = false;
  private flushing: Promise<void> = Promise.resolve();
  private readonly durable = new Set<Promise<unknown>>();
  /** The fsync of the last durable commit, while it runs (settles, never rejects). */
  private syncing: Promise<void> | undefined;

  /** @param afterCommit makes a commit durable before anyone is answered (see WalSync) */
  constructor(
    private readonly db: Database.Database,
    private readonly afterCommit?: () => Promise<void>,
  ) {}

  run<T>(op: () => T, options: { durable?: boolean } = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ op, durable: options.durable ?? true, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) this.schedule();
    });
  }

  /**
   * The next commit: after this turn of the event loop, or, while the last durable commit's fsync runs,
   * once it ends. Writes made meanwhile could not be acked sooner (WalSync runs one fsync at a time, so
   * theirs would start after it anyway), and one commit of them all writes each page they share (the
   * tables' and indexes' last leaves) to the WAL once instead of once per turn. Bookkeeping waits at most
   * that one fsync too.
   */
  private schedule(): void {
    this.scheduled = true;
    const turn = () =>
      new Promise<void>((done) =>
        // setImmediate runs after the poll phase: every request read in this turn has joined the batch.
        setImmediate(() => {
          this.flush();
          done();
        }),
      );
    this.flushing = this.syncing ? this.syncing.then(turn) : turn();
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
      this.db
        .transaction(() => {
          for (const item of batch) {
            // One failing statement (SQLite rolls back just that statement) must not sink the others.
            try {
              results.push({ ok: true, value: item.op() });
            } catch (error) {
              results.push({ ok: false, value: error });
            }
          }
        })
        .immediate();
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    const answer = (durable: boolean) =>
      batch.forEach((item, i) => {
        if (item.durable !== durable) return;
        if (results[i]!.ok) item.resolve(results[i]!.value);
        else item.reject(results[i]!.value);
      });
    answer(false);
    if (!batch.some((item) => item.durable)) return;
    if (!this.afterCommit) return answer(true);
    const durable = this.afterCommit().then(
      () => answer(true),
      (error: unknown) => batch.forEach((item) => item.durable && item.reject(error)),
    );
    this.durable.add(durable);
    const syncing: Promise<void> = durable.finally(() => {
      this.durable.delete(durable);
      if (this.syncing === syncing) this.syncing = undefined;
    });
    this.syncing = syncing;
  }
}
