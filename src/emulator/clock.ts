import type { Clock } from './route-handler.js';

/** The emulator's clock plus a way to hear when it moves (the dispatcher re-checks due retries then). */
export interface EmulatorClock extends Clock {
  /** Calls `listener` after every advance; returns a function that removes it. */
  onAdvance(listener: () => void): () => void;
  /** How far the clock runs ahead of the real one, in milliseconds (negative after an import of an earlier state). */
  readonly offsetMs: number;
  /**
   * Goes on from `ms` (an imported state's time, docs/emulator.md "Saving and loading state"): the one move that
   * may go back, since everything timed on the clock is replaced with it. Listeners hear it as an advance.
   */
  continueFrom(ms: number): void;
}

/** Ten years: a bound on one advance, so a typo cannot overflow dates. */
const MAX_ADVANCE_SECONDS = 10 * 365 * 24 * 3600;

/**
 * Real time plus an offset that only grows (`/_emulator/clock`), so every time-based rule (service
 * windows, key grace, retries, rate-limit windows) can be fast-forwarded without waiting.
 */
export function createClock(options: { now?: () => number; offsetMs?: number } = {}): EmulatorClock {
  const realNow = options.now ?? Date.now;
  let offsetMs = options.offsetMs ?? 0;
  const listeners = new Set<() => void>();
  return {
    now: () => realNow() + offsetMs,
    iso: () => new Date(realNow() + offsetMs).toISOString(),
    get offsetMs() {
      return offsetMs;
    },
    advance(seconds: number) {
      if (!Number.isFinite(seconds) || seconds < 0 || seconds > MAX_ADVANCE_SECONDS) {
        throw new RangeError(
          `Expected \`seconds\` to be a number from 0 to ${MAX_ADVANCE_SECONDS}, got \`${seconds}\``,
        );
      }
      offsetMs += seconds * 1000;
      for (const listener of listeners) listener();
    },
    continueFrom(ms: number) {
      if (!Number.isFinite(ms)) throw new RangeError(`Expected a time in milliseconds, got \`${ms}\``);
      offsetMs = ms - realNow();
      for (const listener of listeners) listener();
    },
    onAdvance(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
