import { endpoint } from '../endpoint.js';
import { Capabilities, DeveloperLimits, ErrorCodeParams, ErrorExplanation, Onboarding } from '../schemas/developer.js';

export const developer = {
  capabilities: endpoint({
    method: 'GET',
    path: '/v1/developer/capabilities',
    summary: 'Scopes, enabled features and limits of the calling key',
    scope: null,
    response: Capabilities,
  }),
  onboarding: endpoint({
    method: 'GET',
    path: '/v1/developer/onboarding',
    summary: 'Integration checklist and which steps are done',
    scope: null,
    response: Onboarding,
  }),
  limits: endpoint({
    method: 'GET',
    path: '/v1/developer/limits',
    summary: 'Rate limit of the calling key and the plan quotas',
    scope: null,
    response: DeveloperLimits,
  }),
  explainError: endpoint({
    method: 'GET',
    path: '/v1/developer/troubleshooting/errors/:code',
    summary: 'Explain a provider or platform error code: what happened, whose fault, the next step',
    scope: null,
    params: ErrorCodeParams,
    response: ErrorExplanation,
  }),
};
