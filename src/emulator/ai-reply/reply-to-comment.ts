import { COMMENT_MAX_CHARS } from '../../api/schemas/comment.js';
import type { Channel } from '../../resources/index.js';
import { groupKnowledge } from '../domain/index.js';
import type { EmulatorContext } from '../route-handler.js';
import { stores } from '../state/stores.js';
import { produceReply, type ReplyOutcome } from './produce-reply.js';
import { replyInstructions } from './reply-instructions.js';

export interface CommentToAnswer {
  integration_id: string;
  channel: Channel;
  content: string;
  created_at: string;
}

/**
 * The AI reply to a public comment (task `comment_reply`), for the comment path to store: the same
 * provider resolution, request and checks as a message reply, with the comment as the one message of the
 * history (sent with `send_conversation_history`) and no tool context (a comment has no conversation to vouch for). The org-wide and per-account
 * comment switches are the caller's to check. Run it through `ctx.aiReplies.enqueue`, off the request.
 */
export function replyToComment(
  ctx: EmulatorContext,
  comment: CommentToAnswer,
  signal: AbortSignal,
): Promise<ReplyOutcome> {
  const s = stores(ctx.db);
  const account = s.accounts.get(comment.integration_id);
  const group = account?.group_id ? s.groups.get(account.group_id) : undefined;
  const parts = {
    task: 'comment_reply' as const,
    instructions: replyInstructions(group?.brain_config, comment.channel, 'comment_reply'),
    history: [{ role: 'customer' as const, content: comment.content, created_at: comment.created_at }],
    knowledge: groupKnowledge(ctx.db, comment.integration_id),
    toolContext: [],
  };
  return produceReply(ctx.db, comment.integration_id, parts, {
    maxChars: COMMENT_MAX_CHARS,
    signal,
    resolve: ctx.resolveHost,
  });
}
