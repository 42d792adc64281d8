interface Waiting<I, O> {
  input: I;
  resolve: (output: O) => void;
  reject: (error: unknown) => void;
}

/**
 * Collects the calls made during one turn of the event loop and runs them as one batch: with PostgreSQL,
 * one statement and one commit for every delivery read in that turn. Each caller resolves only after
 * the batch that holds it committed. Batches run concurrently on the pool's connections.
 */
export class TurnBatch<I, O> {
  private queue: Waiting<I, O>[] = [];
  private scheduled = false;
  private readonly running = new Set<Promise<void>>();

  /** @param run answers one output per input, in order */
  constructor(
    private readonly run: (inputs: I[]) => Promise<O[]>,
    private readonly maxBatch: number,
  ) {}

  add(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      // setImmediate runs after the poll phase: every request read in this turn has joined the batch.
      setImmediate(() => this.flush());
    });
  }

  /** Resolves once every call made so far has been answered. */
  async settled(): Promise<void> {
    while (this.scheduled || this.running.size > 0) {
      if (this.scheduled) await new Promise((resolve) => setImmediate(resolve));
      await Promise.allSettled([...this.running]);
    }
  }

  private flush(): void {
    this.scheduled = false;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      const done = this.run(batch.map((w) => w.input)).then(
        (outputs) => batch.forEach((w, i) => w.resolve(outputs[i]!)),
        (error: unknown) => batch.forEach((w) => w.reject(error)),
      );
      this.running.add(done);
      void done.finally(() => this.running.delete(done));
    }
  }
}
