import { z } from 'zod';

/** Per-key per-minute request limits by plan tier (spec, Limits). */
export const PLAN_RATE_LIMITS = {
  free: 30,
  creator: 30,
  dev_hobby: 120,
  starter: 120,
  trial: 600,
  dev_pro: 600,
  growth: 600,
  dev_scale: 2400,
  pro: 2400,
  enterprise: 10000,
} as const;

export const Plan = z.enum(
  Object.keys(PLAN_RATE_LIMITS) as [keyof typeof PLAN_RATE_LIMITS, ...(keyof typeof PLAN_RATE_LIMITS)[]],
);
export type Plan = z.output<typeof Plan>;

/** Free and Creator plans may only read (spec, Authentication 4). */
export const READ_ONLY_PLANS: ReadonlySet<Plan> = new Set(['free', 'creator']);

/** The rate-limit window: fixed, per key (docs/keys-and-limits.md). */
export const RATE_LIMIT_WINDOW_SECONDS = 60;
