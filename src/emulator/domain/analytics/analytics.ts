import type { z } from 'zod';
import type { AnalyticsQuery, AnalyticsSummary } from '../../../resources/index.js';
import type { Message } from '../../../resources/index.js';
import type { EmulatorContext } from '../../route-handler.js';
import { versionedCache } from '../../state/kind-versions.js';
import { stores } from '../../state/stores.js';

const DAY_MS = 86_400_000;
/** The range when the query names none (schema: the last 30 days). */
export const DEFAULT_RANGE_DAYS = 30;

/** What a summary is computed from; a write to any of them computes it again. */
const SUMMARY_KINDS = ['conversations', 'messages', 'leads'] as const;
/** Summaries kept per database for its current version (distinct ranges and filters asked for). */
const MAX_KEPT_SUMMARIES = 64;
const kept = versionedCache<AnalyticsSummary>(MAX_KEPT_SUMMARIES);

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The nearest-rank percentile of sorted values. */
function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * Seconds from a customer's first unanswered message to the business's next reply, per conversation:
 * a run of customer messages is answered once, by the first reply after it.
 */
export function responseTimes(messages: readonly Message[]): number[] {
  const byConversation = new Map<string, Message[]>();
  for (const m of messages) {
    const thread = byConversation.get(m.conversation_id);
    if (thread) thread.push(m);
    else byConversation.set(m.conversation_id, [m]);
  }
  const times: number[] = [];
  for (const thread of byConversation.values()) {
    let waitingSince: number | null = null;
    for (const m of thread.sort((a, b) => (a.created_at < b.created_at ? -1 : 1))) {
      if (m.direction === 'received') waitingSince ??= Date.parse(m.created_at);
      else if (waitingSince !== null) {
        times.push((Date.parse(m.created_at) - waitingSince) / 1000);
        waitingSince = null;
      }
    }
  }
  return times.sort((a, b) => a - b);
}

/**
 * GET /v1/analytics/summary, computed from the emulator's own records over whole UTC days. It reads every
 * conversation, message and lead, so it is kept until one of them changes (kind-versions.ts): a summary
 * depends on nothing else but its resolved range and filters.
 */
export function analyticsSummary(ctx: EmulatorContext, query: z.output<typeof AnalyticsQuery>): AnalyticsSummary {
  const now = ctx.clock.now();
  const to = query.to ?? (query.from && query.from > day(now) ? query.from : day(now));
  const from = query.from ?? day(Date.parse(to) - (DEFAULT_RANGE_DAYS - 1) * DAY_MS);
  const key = JSON.stringify([from, to, query.channel, query.integration_id]);
  return kept(ctx.db, SUMMARY_KINDS, key, () => computeSummary(ctx, { ...query, from, to }));
}

function computeSummary(
  ctx: EmulatorContext,
  query: z.output<typeof AnalyticsQuery> & { from: string; to: string },
): AnalyticsSummary {
  const s = stores(ctx.db);
  const { from, to } = query;
  const start = `${from}T00:00:00.000Z`;
  const end = `${day(Date.parse(to) + DAY_MS)}T00:00:00.000Z`;
  const inRange = (iso: string) => iso >= start && iso < end;
  const scope = { channel: query.channel, integration_id: query.integration_id };
  const conversations = s.conversations.all(scope).filter((c) => c.created_at < end && c.latest_activity_at >= start);
  const messages = s.messages.all(scope).filter((m) => inRange(m.created_at));
  const times = responseTimes(messages);
  const scoped = new Set(conversations.map((c) => c.id));
  const filtered = query.channel !== undefined || query.integration_id !== undefined;
  const leads = s.leads
    .all()
    .filter(
      (l) => inRange(l.created_at) && (!filtered || (l.conversation_id !== null && scoped.has(l.conversation_id))),
    );
  const won = leads.filter((l) => l.stage === 'won').length;
  return {
    from,
    to,
    conversations: {
      total: conversations.length,
      new: conversations.filter((c) => inRange(c.created_at)).length,
      closed: conversations.filter((c) => c.status === 'closed').length,
    },
    messages: {
      sent: messages.filter((m) => m.direction === 'sent' && m.delivery_status !== 'failed').length,
      received: messages.filter((m) => m.direction === 'received').length,
      failed: messages.filter((m) => m.delivery_status === 'failed').length,
    },
    response_time: { median_seconds: percentile(times, 50), p90_seconds: percentile(times, 90) },
    conversion: {
      leads: leads.length,
      won,
      rate: leads.length === 0 ? null : Math.round((won / leads.length) * 10_000) / 10_000,
    },
  };
}
