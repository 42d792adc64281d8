import { PLAN_RATE_LIMITS, RATE_LIMIT_WINDOW_SECONDS, type Plan } from '../../api/plans.js';
import type { Clock } from '../route-handler.js';

export interface RateDecision {
  allowed: boolean;
  /** `X-RateLimit-*` (and `Retry-After` when refused), for every authenticated response. */
  headers: Record<string, string>;
}

const WINDOW_MS = RATE_LIMIT_WINDOW_SECONDS * 1000;
/** Windows kept at once before old ones are swept: bounded memory whatever the number of keys. */
const MAX_TRACKED_KEYS = 10_000;

/**
 * Fixed 60-second windows per key (docs/keys-and-limits.md), aligned to the emulator clock's minutes so that
 * advancing the clock opens a new window.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; used: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly plan: Plan,
  ) {}

  get limit(): number {
    return PLAN_RATE_LIMITS[this.plan];
  }

  /** Counts one request of `keyId` and says whether it may proceed. */
  take(keyId: string): RateDecision {
    const now = this.clock.now();
    const start = now - (now % WINDOW_MS);
    let window = this.windows.get(keyId);
    if (!window || window.start !== start) {
      if (this.windows.size >= MAX_TRACKED_KEYS) this.sweep(start);
      window = { start, used: 0 };
      this.windows.set(keyId, window);
    }
    const allowed = window.used < this.limit;
    if (allowed) window.used += 1;
    const reset = (start + WINDOW_MS) / 1000;
    const headers: Record<string, string> = {
      'X-RateLimit-Limit': String(this.limit),
      'X-RateLimit-Remaining': String(this.limit - window.used),
      'X-RateLimit-Reset': String(reset),
    };
    if (!allowed) headers['Retry-After'] = String(Math.max(1, Math.ceil(reset - now / 1000)));
    return { allowed, headers };
  }

  /** Requests `keyId` may still make in the current window (for usage and limits). */
  remaining(keyId: string): number {
    const now = this.clock.now();
    const window = this.windows.get(keyId);
    return window && window.start === now - (now % WINDOW_MS) ? this.limit - window.used : this.limit;
  }

  /** Forgets every window (reset to the seed). */
  clear(): void {
    this.windows.clear();
  }

  private sweep(currentStart: number): void {
    for (const [key, window] of this.windows) if (window.start !== currentStart) this.windows.delete(key);
  }
}
