import type { KnowledgeEntry } from '../../api/schemas/knowledge-entry.js';
import {
  CustomReplyRequest,
  REPLY_HISTORY_MAX,
  REPLY_KNOWLEDGE_EXCERPT_MAX_CHARS,
  REPLY_KNOWLEDGE_MAX,
  REPLY_PROTOCOL_VERSION,
  REPLY_RESPONSE_SCHEMA,
  type HistoryMessage,
  type ReplyTask,
  type VerifiedToolResult,
} from '../../api/schemas/custom-reply.js';
import type { ResolvedReplyProvider } from '../domain/index.js';
import { leadingSentences, rankByOverlap } from './knowledge-match.js';

export interface ReplyRequestParts {
  task: ReplyTask;
  instructions: string;
  /** Oldest first; the last one is the message to answer. */
  history: HistoryMessage[];
  knowledge: readonly KnowledgeEntry[];
  toolContext: VerifiedToolResult[];
}

/** Knowledge entries sharing words with `text`, best first, at most `max`. */
export function matchingKnowledge(text: string, entries: readonly KnowledgeEntry[], max: number): KnowledgeEntry[] {
  return rankByOverlap(text, entries, (e) => `${e.title} ${e.content}`)
    .slice(0, max)
    .map((r) => r.item);
}

/**
 * The body of a custom reply call, bounded as docs/custom-reply.md says: the last 20 messages with
 * `send_conversation_history`, up to 5 matching knowledge excerpts with `send_knowledge_context`, the
 * verified tool context with `send_verified_tool_context`; each switch off sends `[]` (no customer words
 * leave without the first, not even the message being answered). Checked against
 * the schema `convo-kit/reply` checks it with, so the emulator cannot send what the endpoint refuses.
 */
export function buildReplyRequest(
  parts: ReplyRequestParts,
  config: ResolvedReplyProvider['config'],
): CustomReplyRequest {
  const asked = parts.history.at(-1)?.content ?? '';
  const history = config.send_conversation_history ? parts.history.slice(-REPLY_HISTORY_MAX) : [];
  const knowledge = config.send_knowledge_context
    ? matchingKnowledge(asked, parts.knowledge, REPLY_KNOWLEDGE_MAX).map((e) => ({
        entry_id: e.entry_id,
        type: e.type,
        title: e.title,
        content: leadingSentences(e.content, REPLY_KNOWLEDGE_EXCERPT_MAX_CHARS),
      }))
    : [];
  return CustomReplyRequest.parse({
    version: REPLY_PROTOCOL_VERSION,
    task: parts.task,
    reply_instructions: parts.instructions,
    conversation_history: history,
    verified_knowledge: knowledge,
    verified_tool_context: config.send_verified_tool_context ? parts.toolContext : [],
    response_schema: REPLY_RESPONSE_SCHEMA,
  });
}
