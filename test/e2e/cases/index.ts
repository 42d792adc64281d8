import { aiCases } from './ai-cases.js';
import { automationCases } from './automation-cases.js';
import { commentCases } from './comment-cases.js';
import { crmCases } from './crm-cases.js';
import { messagingCases } from './messaging-cases.js';
import { outboundCases } from './outbound-cases.js';
import { platformCases } from './platform-cases.js';
import type { EndpointId } from '../../../src/api/all-endpoints.js';
import type { RouteCase } from './route-case.js';
import { workspaceCases } from './workspace-cases.js';

export { type RouteCase } from './route-case.js';

/** One case per route of the table: a missing one fails to compile, and the guard test fails at run time. */
export const ROUTE_CASES = {
  ...messagingCases,
  ...crmCases,
  ...workspaceCases,
  ...platformCases,
  ...outboundCases,
  ...aiCases,
  ...commentCases,
  ...automationCases,
} satisfies Record<EndpointId, RouteCase>;
