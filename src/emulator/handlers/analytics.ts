import type { endpoints } from '../../api/endpoints/index.js';
import type { RouteHandlers } from '../route-handler.js';
import { analyticsSummary } from '../domain/analytics/analytics.js';

export const analyticsHandlers = {
  summary: ({ query }, ctx) => analyticsSummary(ctx, query),
} satisfies RouteHandlers<typeof endpoints.analytics>;
