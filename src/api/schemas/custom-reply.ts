import { z } from 'zod';
import { Timestamp } from './common.js';

/**
 * The custom reply call (the service -> your reply endpoint, docs/custom-reply.md): one schema for both
 * sides, so the emulator builds exactly what `convo-kit/reply` checks.
 */
export const REPLY_PROTOCOL_VERSION = '1';
/** At most the last 20 messages of the conversation are sent. */
export const REPLY_HISTORY_MAX = 20;
/** At most 5 knowledge entries are sent. */
export const REPLY_KNOWLEDGE_MAX = 5;
/** A knowledge entry is sent as an excerpt of at most this many characters: only bounded context leaves. */
export const REPLY_KNOWLEDGE_EXCERPT_MAX_CHARS = 4_000;
export const REPLY_TOOL_CONTEXT_MAX = 20;
export const REPLY_INSTRUCTIONS_MAX_CHARS = 50_000;
/** A reply is a message: 1 to 4096 characters, like any message's `content`. */
export const REPLY_MAX_CHARS = 4096;

/** `reply`: answer a customer's direct message; `comment_reply`: answer a public comment. */
export const ReplyTask = z.enum(['reply', 'comment_reply']);
export type ReplyTask = z.output<typeof ReplyTask>;

/** One message of the conversation, oldest first; the last one is the message to answer. */
export const HistoryMessage = z.looseObject({
  role: z.enum(['customer', 'business']),
  content: z.string().max(4096),
  created_at: Timestamp,
});
export type HistoryMessage = z.output<typeof HistoryMessage>;

/** A knowledge entry of the group, the ones that best match the customer's words first. */
export const KnowledgeExcerpt = z.looseObject({
  entry_id: z.string(),
  type: z.string(),
  title: z.string(),
  content: z.string().max(REPLY_KNOWLEDGE_EXCERPT_MAX_CHARS),
});
export type KnowledgeExcerpt = z.output<typeof KnowledgeExcerpt>;

/**
 * A fact the service checked itself (the contact, the conversation, its tickets), with the actions the
 * service really took (`actions`, e.g. `handoff`): a reply may claim only those actions.
 */
export const VerifiedToolResult = z.looseObject({
  tool: z.string().max(100),
  data: z.record(z.string(), z.unknown()),
  actions: z.array(z.string().max(50)).max(20),
});
export type VerifiedToolResult = z.output<typeof VerifiedToolResult>;

/** The body the service POSTs to a custom reply endpoint. Unknown fields are kept (forward compatibility). */
export const CustomReplyRequest = z.looseObject({
  version: z.literal(REPLY_PROTOCOL_VERSION),
  task: ReplyTask,
  /** The group's brain_config as instructions: business, tone, language, emoji use, the channel's prompt. */
  reply_instructions: z.string().max(REPLY_INSTRUCTIONS_MAX_CHARS),
  /** Oldest first, the message to answer last; empty when the provider's `send_conversation_history` is off. */
  conversation_history: z.array(HistoryMessage).max(REPLY_HISTORY_MAX),
  verified_knowledge: z.array(KnowledgeExcerpt).max(REPLY_KNOWLEDGE_MAX),
  verified_tool_context: z.array(VerifiedToolResult).max(REPLY_TOOL_CONTEXT_MAX),
  /** The JSON Schema of the expected answer, `{ reply: string }`. */
  response_schema: z.record(z.string(), z.unknown()),
});
export type CustomReplyRequest = z.output<typeof CustomReplyRequest>;

/** What the endpoint answers with a 2xx. */
export const CustomReplyAnswer = z.looseObject({ reply: z.string().min(1).max(REPLY_MAX_CHARS) });
export type CustomReplyAnswer = z.output<typeof CustomReplyAnswer>;

/** `response_schema` as sent: derived from the answer's schema, never written twice. */
export const REPLY_RESPONSE_SCHEMA: Record<string, unknown> = z.toJSONSchema(CustomReplyAnswer);
