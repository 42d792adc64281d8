import { endpoint } from '../endpoint.js';
import { ServiceStatus } from '../schemas/insights.js';

export const status = {
  get: endpoint({
    method: 'GET',
    path: '/v1/status',
    summary: 'Dependency health without authentication: 200 when healthy, 503 (same body) when degraded',
    scope: null,
    auth: false,
    response: ServiceStatus,
  }),
};
