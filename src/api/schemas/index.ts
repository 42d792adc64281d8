// The resource and request schemas the spec leaves open, decided once (decisions §2-3): they are the documentation.
export {
  KeyKind,
  ApiKey,
  KeyValue,
  ApiKeyCreate,
  ApiKeyCreated,
  ApiKeyRotated,
} from './api-key.js';
export {
  BrainConfig,
  ChannelGroup,
  ChannelGroupCreate,
  ChannelGroupUpdate,
} from './channel-group.js';
export {
  Id,
  IdParams,
  text,
  Platform,
  platformMap,
  isInvalidPlatformIssue,
  IdempotencyKey,
  synthetic,
  NoContent,
} from './common.js';
export {
  ConnectedAccount,
  ConnectedAccountUpdate,
  ConnectSessionCreate,
  ConnectSession,
} from './connected-account.js';
export {
  DeveloperLimits,
  Capabilities,
  Onboarding,
  ErrorExplanation,
  ErrorCodeParams,
} from './developer.js';
export {
  AnalyticsQuery,
  AnalyticsSummary,
  RateLimitState,
  Usage,
  ServiceStatus,
} from './insights.js';
export {
  KnowledgeType,
  KNOWLEDGE_TEXT_MAX_CHARS,
  KNOWLEDGE_FILE_MAX_BYTES,
  KNOWLEDGE_FILE_EXTENSIONS,
  KnowledgeEntry,
  KnowledgeCreate,
  KnowledgeFile,
  KnowledgeUpload,
} from './knowledge-entry.js';
export {
  Stage,
  Lead,
  LeadUpdate,
  LeadMove,
} from './lead.js';
export {
  ProviderName,
  VoiceConfig,
  CustomReplyConfig,
  PROVIDER_CONFIGS,
  ProviderPut,
  ProviderConfig,
  GroupProviderParams,
  ChannelProviderParams,
  maskSecret,
} from './provider-config.js';
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
