import { endpoint } from '../endpoint.js';
import { Usage } from '../schemas/insights.js';

export const usage = {
  get: endpoint({
    method: 'GET',
    path: '/v1/usage',
    summary: 'Plan tier, rate-limit headroom, request count and usage of messages, AI replies, webhooks and API calls',
    scope: null,
    response: Usage,
  }),
};
