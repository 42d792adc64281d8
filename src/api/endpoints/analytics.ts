import { endpoint } from '../endpoint.js';
import { AnalyticsQuery, AnalyticsSummary } from '../schemas/insights.js';

export const analytics = {
  summary: endpoint({
    method: 'GET',
    path: '/v1/analytics/summary',
    summary: 'Response-time, volume and conversion summary over a date range',
    scope: 'analytics:read',
    query: AnalyticsQuery,
    response: AnalyticsSummary,
  }),
};
