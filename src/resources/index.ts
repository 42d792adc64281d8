// `convo-kit/resources`: every shape of the wire, each a zod schema and the type derived from it, with its
// limits: the resources the API answers and events carry (Ticket, Conversation, Message, Contact, Template,
// Campaign, …), every request body (TicketUpdate, CampaignCreate, …) and their enums. The rule (src/api/README.md,
// "The public surface"): what src/api/schemas/ defines is public here and only here; `convo-kit/api` is the
// contract that routes are made of. test/code/public-surface.test.ts holds both halves.
export {
  ApiKey,
  ApiKeyCreate,
  ApiKeyCreated,
  ApiKeyListQuery,
  ApiKeyRotated,
  KeyKind,
  KeyValue,
} from '../api/schemas/api-key.js';
export {
  Automation,
  AutomationConditions,
  AutomationRun,
  AutomationSchedule,
  AutomationTrigger,
  AutomationTriggerKind,
  AUTOMATION_MAX_KEYWORDS,
  AUTOMATION_MAX_REPEAT_SECONDS,
  AUTOMATION_MIN_REPEAT_SECONDS,
} from '../api/schemas/automation.js';
export { BusinessEventAccepted, BusinessEventFire, BusinessEventName } from '../api/schemas/business-event.js';
export {
  Campaign,
  CampaignAudience,
  CampaignCreate,
  CampaignListQuery,
  CampaignStatus,
  CampaignUpdate,
  CAMPAIGN_MAX_CONTACTS,
} from '../api/schemas/campaign.js';
export {
  BrainConfig,
  ChannelGroup,
  ChannelGroupCreate,
  ChannelGroupParams,
  ChannelGroupUpdate,
} from '../api/schemas/channel-group.js';
export {
  Comment,
  CommentListQuery,
  CommentReply,
  CommentReplyCreate,
  CommentRule,
  CommentSettings,
  CommentSettingsUpdate,
  COMMENT_MAX_CHARS,
  COMMENT_RULES_MAX,
} from '../api/schemas/comment.js';
export {
  Channel,
  HttpsUrl,
  Id,
  IdParams,
  IdempotencyKey,
  NoContent,
  EmptyBody,
  PhoneNumber,
  Platform,
  TemplateVariables,
  Timestamp,
  TimestampInput,
  TEMPLATE_VARIABLE,
} from '../api/schemas/common.js';
export {
  ConnectSession,
  ConnectSessionCreate,
  ConnectedAccount,
  ConnectedAccountListQuery,
  ConnectedAccountParams,
  ConnectedAccountUpdate,
} from '../api/schemas/connected-account.js';
export { Contact, ContactListQuery, ContactUpdate, Identity } from '../api/schemas/contact.js';
export {
  Conversation,
  ConversationListQuery,
  ConversationStatus,
  ConversationUpdate,
  Routing,
} from '../api/schemas/conversation.js';
export {
  CustomReplyAnswer,
  CustomReplyRequest,
  HistoryMessage,
  KnowledgeExcerpt,
  ReplyTask,
  VerifiedToolResult,
  REPLY_HISTORY_MAX,
  REPLY_INSTRUCTIONS_MAX_CHARS,
  REPLY_KNOWLEDGE_EXCERPT_MAX_CHARS,
  REPLY_KNOWLEDGE_MAX,
  REPLY_MAX_CHARS,
  REPLY_PROTOCOL_VERSION,
  REPLY_RESPONSE_SCHEMA,
  REPLY_TOOL_CONTEXT_MAX,
} from '../api/schemas/custom-reply.js';
export {
  Capabilities,
  DeveloperLimits,
  ErrorCodeParams,
  ErrorExplanation,
  Onboarding,
} from '../api/schemas/developer.js';
export { IfMatch, IfMatchHeaders } from '../api/schemas/if-match.js';
export { AnalyticsQuery, AnalyticsSummary, RateLimitState, ServiceStatus, Usage } from '../api/schemas/insights.js';
export {
  Journey,
  JourneyCreate,
  JourneyEvents,
  JourneyListQuery,
  JourneyStatus,
  JourneyStatusChange,
  JourneyStepInput,
  JourneySteps,
  JourneyStepsReplace,
  JOURNEY_MAX_EVENTS,
  JOURNEY_MAX_STEPS,
  JOURNEY_STEP_MAX_DELAY_SECONDS,
} from '../api/schemas/journey.js';
export {
  KnowledgeCreate,
  KnowledgeEntry,
  KnowledgeEntryParams,
  KnowledgeFile,
  KnowledgeType,
  KnowledgeUpload,
  KNOWLEDGE_FILE_EXTENSIONS,
  KNOWLEDGE_FILE_MAX_BYTES,
  KNOWLEDGE_FILE_NAME_MAX_CHARS,
  KNOWLEDGE_OFFICE_ENTRY_MAX_BYTES,
  KNOWLEDGE_OFFICE_EXPANDED_MAX_BYTES,
  KNOWLEDGE_TEXT_MAX_CHARS,
  KNOWLEDGE_XLSX_MAX_COLUMNS,
  KNOWLEDGE_XLSX_MAX_ROWS,
} from '../api/schemas/knowledge-entry.js';
export { Lead, LeadListQuery, LeadMove, LeadUpdate, Stage } from '../api/schemas/lead.js';
export {
  Buttons,
  ConversationMessageSend,
  CtaUrl,
  Media,
  MediaType,
  Message,
  MessageContent,
  MessageDeliveryStatus,
  MessageDirection,
  MessageInput,
  MessageListQuery,
  MessageSend,
  MessageSource,
  Reaction,
  ReactionEmoji,
  ReactionPut,
  MESSAGE_CONTENT_MAX_CHARS,
} from '../api/schemas/message.js';
export { PageQuery, Pagination, PAGE_DEFAULT_LIMIT, type Page } from '../api/schemas/page.js';
export {
  ChannelProviderParams,
  CustomReplyConfig,
  GroupProviderParams,
  LoopbackTolerantCustomReplyConfig,
  ProviderConfig,
  ProviderName,
  ProviderPut,
  ProviderPutByPath,
  VoiceConfig,
  VoiceProviderPut,
  CustomReplyProviderPut,
  PROVIDER_PUTS,
  LOOPBACK_TOLERANT_PROVIDER_CONFIGS,
  MASK_MIN_SECRET_CHARS,
  PROVIDER_CONFIGS,
} from '../api/schemas/provider-config.js';
export {
  Template,
  TemplateCategory,
  TemplateCreate,
  TemplateDraftValidate,
  TemplateListQuery,
  TemplateQuality,
  TemplateSend,
  TemplateStatus,
  TemplateValidation,
  TEMPLATE_BODY_MAX_CHARS,
} from '../api/schemas/template.js';
export {
  Resolution,
  Ticket,
  TicketKind,
  TicketListQuery,
  TicketPriority,
  TicketStatus,
  TicketUpdate,
} from '../api/schemas/ticket.js';
export {
  Enrollment,
  EnrollmentHistoryQuery,
  EnrollmentStatus,
  Fault,
  StopEnrollmentsQuery,
  StopEnrollmentsResult,
  TriggerBatchRequest,
  TriggerBatchResult,
  TriggerLimits,
  TriggerMetadata,
  TriggerRequest,
  TriggerResult,
  TriggerStatus,
  TriggerValidation,
  WebhookSendRequest,
  TRIGGER_BATCH_MAX,
} from '../api/schemas/trigger.js';
export {
  EventSubscription,
  LoopbackTolerantWebhookCreate,
  LoopbackTolerantWebhookUrl,
  SignPayloadRequest,
  SignPayloadResult,
  Signature,
  WebhookAttempt,
  WebhookCreate,
  WebhookEndpoint,
  WebhookEndpointCreated,
  WebhookUrl,
} from '../api/schemas/webhook-endpoint.js';
