// What other code (tests, the repository's sample integration) reuses from this project.
export { readConfig, type AppConfig } from './app-config.js';
export { backfill, type BackfillOptions, type BackfillResult } from './backfill.js';
export {
  editContact,
  moveLeadStage,
  sendToConversation,
  OptedOutError,
  type ContactChanges,
  type SentReply,
} from './crm-actions.js';
export { type CrmContext, type KitClient, type SyncEffects } from './crm-context.js';
export { openCrmDatabase, type CrmDatabase } from './crm-database.js';
export { crmRoutes } from './crm-http.js';
export { crmPage, CRM_PANELS, type PageLink, type Panel } from './crm-page.js';
export {
  listActivity,
  listContacts,
  listConversations,
  contactLabels,
  getContact,
  type ActivityRow,
  type ContactRow,
  type ConversationRow,
} from './crm-queries.js';
export { applyContact, applyConversation, applyOptOut, isOptedOut, recordActivity } from './crm-records.js';
export { startCrmSync, WEBHOOK_PATH, type CrmSyncApp, type CrmSyncAppOptions } from './crm-sync-app.js';
export { HttpError, readJsonObject, sendJson, serveRoutes, type Route } from './http-json.js';
export { registerCrmSync } from './register-crm-sync.js';
export { CRM_EVENTS, crmSyncHandlers, type CrmEvent } from './sync-handlers.js';
export { windowClosedTemplateFromEnv, WindowClosedError, type WindowClosedTemplate } from './window-closed-template.js';
