import type { endpoints } from '../../api/endpoints/index.js';
import type { RouteHandlers } from '../route-handler.js';
import { ApiFailure } from '../api-failure.js';
import { capabilitiesOf, limitsFor, onboardingOf } from '../domain/developer/developer.js';
import { explainErrorCode } from '../error-explanations.js';

export const developerHandlers = {
  capabilities: ({ key }, ctx) => capabilitiesOf(key, ctx.plan),
  onboarding: (_req, ctx) => onboardingOf(ctx),
  limits: (_req, ctx) => limitsFor(ctx.plan),
  explainError: ({ params }) => {
    const explanation = explainErrorCode(params.code);
    if (!explanation)
      throw new ApiFailure(
        'NOT_FOUND',
        `No explanation for error code ${JSON.stringify(params.code)}; provider codes are numbers such as 131049`,
      );
    return explanation;
  },
} satisfies RouteHandlers<typeof endpoints.developer>;
