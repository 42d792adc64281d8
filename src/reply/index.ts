// `convo-kit/reply`: your side of the service's custom reply endpoint (docs/custom-reply.md).
export { createReplyEndpoint, type ReplyEndpoint } from './create-reply-endpoint.js';
export { serveReply, type ServeReplyOptions, type ServedReply } from './serve-reply.js';
// The same function as convo-kit/receiver's, here so that a reply-only app loads none of the receiver.
export { closeOnSignals, type CloseOnSignalsOptions } from '../receiver/close-on-signals.js';
export { type ReplyEndpointOptions, type ReplyFunction, type ReplyContext, type ReplyResult } from './reply-options.js';
export { type ReplyRequestInput } from './handle-reply-request.js';
export { type ReplyEndpointAnswer, type ReplyErrorCode } from './reply-answer.js';
export {
  CustomReplyRequest,
  CustomReplyAnswer,
  ReplyTask,
  HistoryMessage,
  KnowledgeExcerpt,
  VerifiedToolResult,
  REPLY_PROTOCOL_VERSION,
  REPLY_HISTORY_MAX,
  REPLY_KNOWLEDGE_MAX,
  REPLY_MAX_CHARS,
  REPLY_RESPONSE_SCHEMA,
} from '../api/schemas/custom-reply.js';
