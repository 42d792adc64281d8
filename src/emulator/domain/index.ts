// The emulator's business rules, separate from HTTP: handlers and controls call these.
export { SERVICE_WINDOW_SECONDS, windowExpiry, windowOpen } from './service-window.js';
export { providerOutcome, REJECTED_ERROR, THROTTLED_ERROR, type ProviderOutcome } from './provider-outcome.js';
export { resolveConversation, requireChannel, requireSameAccount, type SendTarget } from './resolve-conversation.js';
export { resolveTemplateSender } from './template-sender.js';
export { sendMessage, preview, PREVIEW_CHARS } from './send-message.js';
export { trackDelivery, catchUpDeliveries, SENT_AFTER_MS, FINAL_AFTER_MS } from './delivery-progress.js';
export { checkIfMatch, ticketEtag } from './ticket-version.js';
export { updateTicket, ticketDone } from './update-ticket.js';
export { updateConversation } from './update-conversation.js';
export { updateContact, requireStage } from './lead-stage.js';
export { updateLead, moveLead } from './pipeline.js';
export { updateAccount, createConnectSession, CONNECT_BASE_URL, CONNECT_SESSION_TTL_MS } from './channels.js';
export { slaDueAt, SLA_HOURS } from './sla.js';
export { handOff } from './hand-off.js';
export { analyticsSummary, responseTimes, DEFAULT_RANGE_DAYS } from './analytics.js';
export { usageOf, currentPeriod } from './usage.js';
export { capabilitiesOf, limitsFor, onboardingOf, FEATURES, GUIDES_BASE_URL } from './developer.js';
export { PLAN_QUOTAS, type PlanQuotas } from './plan-quotas.js';
export { applyPatch } from './changed-fields.js';
export { createGroup, updateGroup, deleteGroup, listGroups, groupView } from './groups.js';
export {
  addKnowledge,
  deleteKnowledge,
  groupKnowledge,
  KNOWLEDGE_ENTRIES_PER_GROUP,
  type NewKnowledge,
} from './knowledge.js';
export { findInjection, requireNoInjection, INJECTION_PHRASES, type InjectionMatch } from './prompt-injection.js';
export {
  putProvider,
  deleteProvider,
  listProviders,
  resolveReplyProvider,
  DEFAULT_REPLY_TIMEOUT_MS,
  type ResolvedReplyProvider,
  type ProviderOwnerRef,
} from './providers.js';
