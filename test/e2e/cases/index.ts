import { aiCases } from './ai-cases.js';
import { commentCases } from './comment-cases.js';
import { crmCases } from './crm-cases.js';
import { messagingCases } from './messaging-cases.js';
import { outboundCases } from './outbound-cases.js';
import { platformCases } from './platform-cases.js';
import type { ImplementedId, RouteCase } from './route-case.js';
import { workspaceCases } from './workspace-cases.js';

export { type ImplementedId, type PendingId, type RouteCase } from './route-case.js';

/** One case per route the emulator implements: a missing one fails to compile, and the guard test fails at run time. */
export const ROUTE_CASES = {
  ...messagingCases,
  ...crmCases,
  ...workspaceCases,
  ...platformCases,
  ...outboundCases,
  ...aiCases,
  ...commentCases,
} satisfies Record<ImplementedId, RouteCase>;
