// The contract: every route of the service, declared once; the client, the emulator and openapi() derive from it.
export { endpoints, type Endpoints } from './endpoints/index.js';
export {
  allEndpoints,
  findEndpoint,
  compareRoutePrecedence,
  type EndpointId,
  type EndpointEntry,
  type EndpointGroupName,
} from './all-endpoints.js';
export { endpoint, type EndpointDef, type EndpointGroup, type HttpMethod } from './endpoint.js';
export { page, PageQuery, Pagination, type Page } from './schemas/page.js';
export { SCOPES, Scope } from './scopes.js';
export { PLAN_RATE_LIMITS, READ_ONLY_PLANS, RATE_LIMIT_WINDOW_SECONDS, Plan } from './plans.js';
export { ERROR_STATUS, DOCS_BASE_URL, ErrorEnvelope, type ErrorCode } from './error-codes.js';
export { MessageSend, ReactionEmoji, Reaction } from './schemas/message.js';
export { ConversationUpdate } from './schemas/conversation.js';
export { TicketUpdate } from './schemas/ticket.js';
export { IfMatch } from './schemas/if-match.js';
export { ContactUpdate } from './schemas/contact.js';
// The resource and request schemas the spec leaves open, decided once (docs/resources.md): they are the documentation.
export { KeyKind, ApiKey, KeyValue, ApiKeyCreate, ApiKeyCreated, ApiKeyRotated } from './schemas/api-key.js';
export { Automation, AutomationTrigger, AutomationRun } from './schemas/automation.js';
export { BusinessEventName, BusinessEventFire, BusinessEventAccepted } from './schemas/business-event.js';
export {
  CampaignStatus,
  CAMPAIGN_MAX_CONTACTS,
  CampaignAudience,
  Campaign,
  CampaignCreate,
  CampaignUpdate,
} from './schemas/campaign.js';
export { BrainConfig, ChannelGroup, ChannelGroupCreate, ChannelGroupUpdate } from './schemas/channel-group.js';
export {
  COMMENT_MAX_CHARS,
  CommentReply,
  Comment,
  CommentReplyCreate,
  CommentRule,
  CommentSettings,
  COMMENT_RULES_MAX,
  CommentSettingsUpdate,
} from './schemas/comment.js';
export {
  Id,
  IdParams,
  text,
  Platform,
  platformMap,
  isInvalidPlatformIssue,
  TemplateVariables,
  IdempotencyKey,
  synthetic,
  NoContent,
} from './schemas/common.js';
export {
  ConnectedAccount,
  ConnectedAccountUpdate,
  ConnectSessionCreate,
  ConnectSession,
} from './schemas/connected-account.js';
export { DeveloperLimits, Capabilities, Onboarding, ErrorExplanation, ErrorCodeParams } from './schemas/developer.js';
export { AnalyticsQuery, AnalyticsSummary, RateLimitState, Usage, ServiceStatus } from './schemas/insights.js';
export {
  JourneyStatus,
  JOURNEY_STEP_MAX_DELAY_SECONDS,
  JOURNEY_MAX_STEPS,
  JourneyStepInput,
  JourneySteps,
  Journey,
  JourneyCreate,
  JourneyStepsReplace,
  JourneyStatusChange,
} from './schemas/journey.js';
export {
  KnowledgeType,
  KNOWLEDGE_TEXT_MAX_CHARS,
  KNOWLEDGE_FILE_MAX_BYTES,
  KNOWLEDGE_FILE_EXTENSIONS,
  KNOWLEDGE_FILE_NAME_MAX_CHARS,
  KNOWLEDGE_OFFICE_ENTRY_MAX_BYTES,
  KNOWLEDGE_OFFICE_EXPANDED_MAX_BYTES,
  KNOWLEDGE_XLSX_MAX_ROWS,
  KNOWLEDGE_XLSX_MAX_COLUMNS,
  extensionOf,
  KnowledgeEntry,
  KnowledgeCreate,
  KnowledgeFile,
  KnowledgeUpload,
} from './schemas/knowledge-entry.js';
export { Stage, Lead, LeadUpdate, LeadMove } from './schemas/lead.js';
export {
  ProviderName,
  VoiceConfig,
  CustomReplyConfig,
  LoopbackTolerantCustomReplyConfig,
  PROVIDER_CONFIGS,
  LOOPBACK_TOLERANT_PROVIDER_CONFIGS,
  ProviderPut,
  ProviderPutByPath,
  ProviderConfig,
  GroupProviderParams,
  ChannelProviderParams,
  MASK_MIN_SECRET_CHARS,
  maskSecret,
} from './schemas/provider-config.js';
export {
  TEMPLATE_BODY_MAX_CHARS,
  TemplateValidation,
  Template,
  TemplateCreate,
  TemplateDraftValidate,
  TemplateSend,
} from './schemas/template.js';
export {
  TriggerMetadata,
  TriggerRequest,
  WebhookSendRequest,
  TriggerResult,
  EnrollmentStatus,
  Enrollment,
  Fault,
  TriggerStatus,
  TriggerLimits,
  TriggerValidation,
  TRIGGER_BATCH_MAX,
  TriggerBatchRequest,
  TriggerBatchResult,
  StopEnrollmentsQuery,
  StopEnrollmentsResult,
} from './schemas/trigger.js';
export {
  WebhookUrl,
  LoopbackTolerantWebhookUrl,
  EventSubscription,
  WebhookEndpoint,
  WebhookEndpointCreated,
  WebhookCreate,
  LoopbackTolerantWebhookCreate,
  WebhookAttempt,
  SignPayloadRequest,
  SignPayloadResult,
} from './schemas/webhook-endpoint.js';
export { openapi, openapiPath, type OpenApiDocument, type OpenApiOptions } from './openapi/index.js';
