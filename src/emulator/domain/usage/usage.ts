import { PLAN_RATE_LIMITS, RATE_LIMIT_WINDOW_SECONDS } from '../../../api/index.js';
import { type Usage } from '../../../resources/index.js';
import type { AuthenticatedKey, EmulatorContext } from '../../route-handler.js';
import { requestStats, requestsThisWindow } from '../../state/request-stats.js';
import { outboundCounts } from '../../state/outbound-counts.js';

/** The usage period: the current calendar month (UTC) of the emulator clock. */
export function currentPeriod(nowMs: number): { start: string; end: string } {
  const now = new Date(nowMs);
  return {
    start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString(),
    end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
  };
}

/** Webhook delivery attempts the dispatcher made since `sinceMs` (its attempt log). */
function deliveryAttemptsSince(ctx: EmulatorContext, sinceMs: number): number {
  return (
    ctx.db.prepare('SELECT count(*) AS n FROM delivery_attempts WHERE created_at >= ?').get(sinceMs) as { n: number }
  ).n;
}

/**
 * GET /v1/usage, counted from what the emulator really did this month. The platform records a request
 * when its answer is finished, so the request being answered is added here.
 */
export function usageOf(ctx: EmulatorContext, key: AuthenticatedKey): Usage {
  const now = ctx.clock.now();
  const period = currentPeriod(now);
  const since = Date.parse(period.start);
  const limit = PLAN_RATE_LIMITS[ctx.plan];
  const windowMs = RATE_LIMIT_WINDOW_SECONDS * 1000;
  const outbound = outboundCounts(ctx.db, now);
  return {
    plan: ctx.plan,
    period,
    rate_limit: {
      limit,
      remaining: Math.max(0, limit - requestsThisWindow(ctx.db, key.id, now) - 1),
      reset: (now - (now % windowMs) + windowMs) / 1000,
    },
    requests: requestStats(ctx.db, { apiKeyId: key.id, since }).requests + 1,
    usage: {
      messages: outbound.messages,
      ai_replies: outbound.ai_replies,
      webhooks: deliveryAttemptsSince(ctx, since),
      api_calls: requestStats(ctx.db, { since }).requests + 1,
    },
  };
}
