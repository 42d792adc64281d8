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
export {
  endpoint,
  page,
  PageQuery,
  Pagination,
  type Page,
  type EndpointDef,
  type EndpointGroup,
  type HttpMethod,
} from './endpoint.js';
export { SCOPES, Scope } from './scopes.js';
export { PLAN_RATE_LIMITS, READ_ONLY_PLANS, RATE_LIMIT_WINDOW_SECONDS, Plan } from './plans.js';
export { ERROR_STATUS, DOCS_BASE_URL, ErrorEnvelope, type ErrorCode } from './error-codes.js';
export { MessageSend, ReactionEmoji, Reaction } from './endpoints/messages.js';
export { ConversationUpdate } from './endpoints/conversations.js';
export { TicketUpdate, IfMatch } from './endpoints/tickets.js';
export { ContactUpdate } from './endpoints/contacts.js';
export * from './schemas/index.js';
export { openapi, openapiPath, type OpenApiDocument, type OpenApiOptions } from './openapi/index.js';
