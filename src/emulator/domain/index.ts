// The emulator's business rules, separate from HTTP: handlers and controls call these.
export { SERVICE_WINDOW_SECONDS, windowExpiry, windowOpen } from './conversations/service-window.js';
export { providerOutcome, REJECTED_ERROR, THROTTLED_ERROR, type ProviderOutcome } from './shared/provider-outcome.js';
export {
  resolveConversation,
  requireChannel,
  requireSameAccount,
  type SendTarget,
} from './conversations/resolve-conversation.js';
export { resolveTemplateSender } from './templates/template-sender.js';
export { sendMessage, preview, PREVIEW_CHARS } from './messages/send-message.js';
export { trackDelivery, catchUpDeliveries, SENT_AFTER_MS, FINAL_AFTER_MS } from './messages/delivery-progress.js';
export { checkIfMatch, ticketEtag } from './tickets/ticket-version.js';
export { updateTicket, ticketDone } from './tickets/update-ticket.js';
export { updateConversation } from './conversations/update-conversation.js';
export { updateContact, requireStage } from './contacts/lead-stage.js';
export { updateLead, moveLead } from './pipeline/pipeline.js';
export { updateAccount, createConnectSession, CONNECT_BASE_URL, CONNECT_SESSION_TTL_MS } from './channels/channels.js';
export { slaDueAt, SLA_HOURS } from './tickets/sla.js';
export { handOff } from './tickets/hand-off.js';
export { analyticsSummary, responseTimes, DEFAULT_RANGE_DAYS } from './analytics/analytics.js';
export { usageOf, currentPeriod } from './usage/usage.js';
export { capabilitiesOf, limitsFor, onboardingOf, FEATURES, GUIDES_BASE_URL } from './developer/developer.js';
export { PLAN_QUOTAS, type PlanQuotas } from './usage/plan-quotas.js';
export { applyPatch } from './shared/changed-fields.js';
export { createGroup, updateGroup, deleteGroup, listGroups, groupView } from './groups/groups.js';
export {
  addKnowledge,
  deleteKnowledge,
  groupKnowledge,
  KNOWLEDGE_ENTRIES_PER_GROUP,
  type NewKnowledge,
} from './groups/knowledge.js';
export {
  findInjection,
  requireNoInjection,
  INJECTION_PHRASES,
  type InjectionMatch,
} from './groups/prompt-injection.js';
export {
  putProvider,
  deleteProvider,
  listProviders,
  resolveReplyProvider,
  DEFAULT_REPLY_TIMEOUT_MS,
  type ResolvedReplyProvider,
  type ProviderOwnerRef,
} from './groups/providers.js';
