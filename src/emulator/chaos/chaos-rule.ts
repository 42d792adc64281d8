import { z } from 'zod';
import { Id } from '../../api/schemas/common.js';

/** Bounds of one rule: a test asks for minutes of trouble at most, never a stalled emulator. */
export const CHAOS_MAX_DELAY_MS = 60_000;
export const CHAOS_MAX_HOLD_SECONDS = 3_600;
export const CHAOS_MAX_FORCED_TIMEOUTS = 5;

/**
 * What goes wrong with the deliveries that follow (docs/emulator.md, "Chaos"), for one endpoint or, with
 * `endpoint_id` absent or null, for every endpoint without a rule of its own. A field left out is off.
 */
export const ChaosRule = z.strictObject({
  endpoint_id: Id.nullable().optional(),
  /** Share of delivered deliveries sent a second time at once: the same delivery id and bytes. */
  duplicate_rate: z.number().min(0).max(1).optional(),
  /** Each new delivery waits a random 0 to this many ms before its first attempt, so events arrive out of order. */
  reorder_window_ms: z.number().int().min(0).max(CHAOS_MAX_DELAY_MS).optional(),
  /** Each new delivery waits this many ms before its first attempt. */
  delay_ms: z.number().int().min(0).max(CHAOS_MAX_DELAY_MS).optional(),
  /**
   * The first N attempts of each delivery are posted, then counted as timeouts whatever the receiver answers,
   * so the receiver sees the retry of a delivery it already has.
   */
  timeout_first_attempts: z.number().int().min(0).max(CHAOS_MAX_FORCED_TIMEOUTS).optional(),
  /** New deliveries are held this many seconds (emulator clock) from now, then all fall due at once. */
  burst_hold_seconds: z.number().int().min(0).max(CHAOS_MAX_HOLD_SECONDS).optional(),
});
export type ChaosRule = z.output<typeof ChaosRule>;

/** A rule as kept: its endpoint (null: every endpoint) and, for a burst, when the hold ends. */
export const StoredChaosRule = ChaosRule.extend({
  endpoint_id: z.string().nullable(),
  burst_until: z.string().nullable(),
});
export type StoredChaosRule = z.output<typeof StoredChaosRule>;

export const ChaosStats = z.object({
  /** Deliveries posted a second time (duplicate_rate). */
  duplicates_sent: z.number().int(),
  /** Attempts posted and then counted as timeouts (timeout_first_attempts). */
  timeouts_forced: z.number().int(),
  /** Deliveries whose first attempt was put off (delay, reorder window or burst hold). */
  deliveries_put_off: z.number().int(),
});
export type ChaosStats = z.output<typeof ChaosStats>;

export const ChaosState = z.object({ rules: z.array(StoredChaosRule), stats: ChaosStats });
export type ChaosState = z.output<typeof ChaosState>;

/**
 * `convo-kit emulator --chaos <preset>`: a rule for every endpoint from the start. `rotation` is not a preset:
 * a secret rotation names one endpoint (POST /_emulator/chaos/rotate-secret).
 */
export const CHAOS_PRESETS = {
  duplicates: { duplicate_rate: 0.5 },
  timeouts: { timeout_first_attempts: 1 },
  'out-of-order': { reorder_window_ms: 2_000 },
  slow: { delay_ms: 3_000 },
  burst: { burst_hold_seconds: 30 },
  'bad-day': { duplicate_rate: 0.3, timeout_first_attempts: 1, reorder_window_ms: 1_000 },
} as const satisfies Record<string, ChaosRule>;
export type ChaosPreset = keyof typeof CHAOS_PRESETS;
