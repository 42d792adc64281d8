import { z } from 'zod';
import { Id, Platform, Timestamp } from './common.js';
import { Plan } from '../plans.js';

/** Date range of the summary, inclusive, UTC days. @default the last 30 days */
export const AnalyticsQuery = z
  .object({
    from: z.iso.date().optional(),
    to: z.iso.date().optional(),
    channel: Platform.optional(),
    integration_id: Id.optional(),
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
    message: 'expected from <= to',
    path: ['from'],
  });

const count = z.number().int().min(0);

export const AnalyticsSummary = z.looseObject({
  from: z.iso.date(),
  to: z.iso.date(),
  conversations: z.looseObject({ total: count, new: count, closed: count }),
  messages: z.looseObject({ sent: count, received: count, failed: count }),
  /** Null when no inbound message was answered in the range. */
  response_time: z.looseObject({
    median_seconds: z.number().min(0).nullable(),
    p90_seconds: z.number().min(0).nullable(),
  }),
  conversion: z.looseObject({ leads: count, won: count, rate: z.number().min(0).max(1).nullable() }),
});
export type AnalyticsSummary = z.output<typeof AnalyticsSummary>;

export const RateLimitState = z.looseObject({
  limit: count,
  remaining: count,
  /** Unix seconds when the current window ends. */
  reset: count,
});

export const Usage = z.looseObject({
  plan: Plan,
  period: z.looseObject({ start: Timestamp, end: Timestamp }),
  rate_limit: RateLimitState,
  requests: count,
  usage: z.looseObject({ messages: count, ai_replies: count, webhooks: count, api_calls: count }),
});
export type Usage = z.output<typeof Usage>;

const Health = z.enum(['ok', 'degraded']);

/** GET /v1/status: 200 when healthy, 503 (same body) when degraded. */
export const ServiceStatus = z.looseObject({
  status: Health,
  dependencies: z.looseObject({ database: Health, cache: Health }),
  /** Null until enough real usage history exists. */
  error_rate: z.number().min(0).max(1).nullable(),
  checked_at: Timestamp,
});
export type ServiceStatus = z.output<typeof ServiceStatus>;
