import { ApiFailure } from '../../api-failure.js';
import type { EmulatorContext } from '../../route-handler.js';
import { outboundCounts } from '../../state/outbound-counts.js';
import { PLAN_QUOTAS } from './plan-quotas.js';
import { currentPeriod } from './usage.js';

/**
 * Why a monthly quota refuses `wanted` more now, or null when it has room: 422 INVALID_STATE naming the plan,
 * the quota and when it resets, with `details: [{ quota, used, period_resets_at }]` (docs/keys-and-limits.md).
 */
export function monthlyQuotaRefusal(
  ctx: Pick<EmulatorContext, 'plan' | 'clock'>,
  what: string,
  quota: number | null,
  used: number,
  wanted = 1,
): ApiFailure | null {
  if (quota === null || used + wanted <= quota) return null;
  const resetsAt = currentPeriod(ctx.clock.now()).end;
  const state = used >= quota ? 'all are used' : `${used} are used, and this needs ${wanted}`;
  return new ApiFailure(
    'INVALID_STATE',
    `The ${ctx.plan} plan allows ${quota} ${what} a month and ${state}; the quota resets at ${resetsAt}`,
    { details: [{ quota, used, period_resets_at: resetsAt }] },
  );
}

/** The outbound quotas a send draws on: every sent message, and of those the AI's replies (comment replies too). */
export type OutboundQuota = 'messages' | 'ai_replies';

const QUOTA_OF = { messages: 'messages_per_month', ai_replies: 'ai_replies_per_month' } as const;
const WORDS: Record<OutboundQuota, string> = { messages: 'messages', ai_replies: 'AI replies' };

type QuotaContext = Pick<EmulatorContext, 'plan' | 'clock' | 'db'>;

/** The refusal of the first of `kinds` that has no room for one more, as a sentence; null when all have room. */
export function outboundQuotaRefusal(ctx: QuotaContext, kinds: readonly OutboundQuota[]): string | null {
  const counts = outboundCounts(ctx.db, ctx.clock.now());
  for (const kind of kinds) {
    const refusal = monthlyQuotaRefusal(ctx, WORDS[kind], PLAN_QUOTAS[ctx.plan][QUOTA_OF[kind]], counts[kind]);
    if (refusal) return refusal.message;
  }
  return null;
}

/** Refuses (throws) a send the plan's monthly message or AI-reply quota has no room for; before anything is stored. */
export function requireOutboundQuota(ctx: QuotaContext, kind: OutboundQuota): void {
  const used = outboundCounts(ctx.db, ctx.clock.now())[kind];
  const refusal = monthlyQuotaRefusal(ctx, WORDS[kind], PLAN_QUOTAS[ctx.plan][QUOTA_OF[kind]], used);
  if (refusal) throw refusal;
}
