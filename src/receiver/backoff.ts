import { InvalidOptionError } from '../errors.js';
export interface BackoffOptions {
  /** Delay before the second attempt. @default 2000 */
  baseMs?: number;
  /** Each further delay is this many times the previous one. @default 4 */
  factor?: number;
  /** No delay is longer than this. @default 600000 (10 min) */
  maxMs?: number;
}

/**
 * Exponential backoff with "equal jitter": half the delay is fixed, half random, so retries of many
 * deliveries that failed together (a downstream outage) do not all come back in the same instant.
 * With the defaults, 5 attempts span about 3 minutes.
 */
export function createBackoff(
  option: BackoffOptions | ((attempt: number) => number) = {},
): (attempt: number) => number {
  if (typeof option === 'function') {
    return (attempt) => {
      const ms = option(attempt);
      if (!Number.isFinite(ms) || ms < 0)
        throw new InvalidOptionError(
          `Expected \`backoff(${attempt})\` to return milliseconds (0 and up), got \`${String(ms)}\``,
        );
      return ms;
    };
  }
  const { baseMs = 2000, factor = 4, maxMs = 600_000 } = option;
  for (const [name, value] of Object.entries({ baseMs, factor, maxMs })) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
      throw new InvalidOptionError(
        `Expected \`backoff.${name}\` to be a number from 0 and up, got \`${String(value)}\``,
      );
  }
  return (attempt) => {
    const ceiling = Math.min(maxMs, baseMs * factor ** Math.max(0, attempt - 1));
    return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
  };
}
