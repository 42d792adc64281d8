/**
 * Calls `fn` at most once per `intervalMs`: at once when the last call is that old, else once when the
 * interval ends, however many calls were asked for meanwhile. (A dozen lines; no dependency for it.)
 */
export class SpacedCalls {
  private last = -Infinity;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly fn: () => void,
    private readonly intervalMs: number,
  ) {}

  call(): void {
    if (this.timer) return;
    const wait = this.last + this.intervalMs - Date.now();
    if (wait <= 0) return this.run();
    this.timer = setTimeout(() => this.run(), wait);
    this.timer.unref();
  }

  /** A call still waiting runs now (before a close). */
  flush(): void {
    if (this.timer) this.run();
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private run(): void {
    this.cancel();
    this.last = Date.now();
    this.fn();
  }
}
