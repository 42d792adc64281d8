interface Waiting<I, O> {
  input: I;
  resolve: (output: O) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for PostgreSQL: the calls made during one turn of the event loop run as one batch, one
 * statement and one commit, and each caller resolves only after the batch that holds it committed. At
 * most `maxInFlight` batches run at once; calls made meanwhile wait and join the next batch, so under load
 * a batch holds everything that arrived during one commit. Without that bound each turn sent its own
 * statement of about one row, and those statements queued for the pool's connections (README "Many
 * receivers, one inbox: PostgreSQL").
 */
export class TurnBatch<I, O> {
  private queue: Waiting<I, O>[] = [];
  private scheduled = false;
  private readonly running = new Set<Promise<void>>();

  /** @param run answers one output per input, in order */
  constructor(
    private readonly run: (inputs: I[]) => Promise<O[]>,
    private readonly options: { maxBatch: number; maxInFlight: number },
  ) {}

  add(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      if (this.scheduled || this.running.size >= this.options.maxInFlight) return;
      this.scheduled = true;
      // setImmediate runs after the poll phase: every request read in this turn has joined the batch.
      setImmediate(() => {
        this.scheduled = false;
        this.flush();
      });
    });
  }

  /** Resolves once every call made so far has been answered. */
  async settled(): Promise<void> {
    while (this.scheduled || this.running.size > 0 || this.queue.length > 0) {
      if (this.scheduled) await new Promise((resolve) => setImmediate(resolve));
      await Promise.allSettled([...this.running]);
    }
  }

  private flush(): void {
    while (this.queue.length > 0 && this.running.size < this.options.maxInFlight) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      const done = this.run(batch.map((w) => w.input)).then(
        (outputs) => batch.forEach((w, i) => w.resolve(outputs[i]!)),
        (error: unknown) => batch.forEach((w) => w.reject(error)),
      );
      this.running.add(done);
      void done.finally(() => {
        this.running.delete(done);
        // What arrived during this commit is the next batch.
        this.flush();
      });
    }
  }
}
