import { analyticsSummary } from '../domain/analytics.js';
import type { ImplementedHandlers } from '../platform/pending.js';

export const analyticsHandlers = {
  summary: ({ query }, ctx) => analyticsSummary(ctx, query),
} satisfies ImplementedHandlers<'analytics'>;
