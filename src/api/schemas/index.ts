// The resource and request schemas the spec leaves open, decided once (docs/resources.md): they are the documentation.
export { KeyKind, ApiKey, KeyValue, ApiKeyCreate, ApiKeyCreated, ApiKeyRotated } from './api-key.js';
export { Automation, AutomationTrigger, AutomationRun } from './automation.js';
export { BusinessEventName, BusinessEventFire, BusinessEventAccepted } from './business-event.js';
export {
  CampaignStatus,
  CAMPAIGN_MAX_CONTACTS,
  CampaignAudience,
  Campaign,
  CampaignCreate,
  CampaignUpdate,
} from './campaign.js';
export { BrainConfig, ChannelGroup, ChannelGroupCreate, ChannelGroupUpdate } from './channel-group.js';
export {
  COMMENT_REPLY_MAX_CHARS,
  CommentReply,
  Comment,
  CommentReplyCreate,
  CommentRule,
  CommentSettings,
  COMMENT_RULES_MAX,
  CommentSettingsUpdate,
} from './comment.js';
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
} from './common.js';
export { ConnectedAccount, ConnectedAccountUpdate, ConnectSessionCreate, ConnectSession } from './connected-account.js';
export { DeveloperLimits, Capabilities, Onboarding, ErrorExplanation, ErrorCodeParams } from './developer.js';
export { AnalyticsQuery, AnalyticsSummary, RateLimitState, Usage, ServiceStatus } from './insights.js';
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
} from './journey.js';
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
} from './knowledge-entry.js';
export { Stage, Lead, LeadUpdate, LeadMove } from './lead.js';
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
} from './provider-config.js';
export {
  TEMPLATE_BODY_MAX_CHARS,
  TemplateValidation,
  Template,
  TemplateCreate,
  TemplateDraftValidate,
  TemplateSend,
} from './template.js';
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
} from './trigger.js';
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
} from './webhook-endpoint.js';
