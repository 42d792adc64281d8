/** 32 full-size (1 MiB) bodies, or thousands of typical (1-2 KiB) ones, at once. */
export const DEFAULT_IN_FLIGHT_BYTES = 32 * 1024 * 1024;

/**
 * Bounds the body bytes held in memory across every request being read or handled at once, so that
 * many large bodies arriving together cannot take the process's memory (README "What the receiver
 * answers": past the bound, 503 with Retry-After). A counter: no allocation, no syscall.
 */
export class BodyBudget {
  private held = 0;

  constructor(readonly limit: number) {}

  /** Reserves `bytes`; false (nothing reserved) when that would pass the limit. */
  take(bytes: number): boolean {
    if (this.held + bytes > this.limit) return false;
    this.held += bytes;
    return true;
  }

  give(bytes: number): void {
    this.held -= bytes;
  }

  /** Bytes reserved right now. */
  get inUse(): number {
    return this.held;
  }
}
