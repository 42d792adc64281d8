import type { Comment } from '../../api/schemas/comment.js';
import { addCommentReply, aiCommentRepliesOn, commentSettings } from '../domain/comments/comments.js';
import { outboundQuotaRefusal } from '../domain/usage/monthly-quota.js';
import { openTicket } from '../domain/tickets/open-ticket.js';
import type { EmulatorContext } from '../route-handler.js';
import { stores } from '../state/stores.js';
import { queueRecordedReply } from './pending-replies.js';
import { replyToComment } from './reply-to-comment.js';

/**
 * A comment the AI could not answer goes to people like a message does (docs/custom-reply.md): a
 * `handoff` ticket, announced as `ticket.created`. A comment belongs to no conversation, so the ticket
 * names none and its subject carries the comment's id.
 */
function handOffComment(ctx: EmulatorContext, comment: Comment, reason: string): void {
  ctx.logger.info({ comment_id: comment.id, reason }, 'AI comment reply handed off');
  openTicket(ctx, {
    kind: 'handoff',
    priority: 'normal',
    conversation_id: null,
    contact_id: null,
    subject: `Comment handoff: ${comment.author.handle} on ${comment.post_id} (${comment.id})`,
  });
}

/** Asks for the AI reply to one stored comment and stores it with source `ai`; a failure hands off. */
async function answerComment(ctx: EmulatorContext, comment: Comment, signal: AbortSignal) {
  const refusal = outboundQuotaRefusal(ctx, ['ai_replies']);
  if (refusal) return handOffComment(ctx, comment, refusal);
  const outcome = await replyToComment(ctx, comment, signal);
  if (signal.aborted || outcome.kind === 'none') return;
  // Ask again: while the endpoint thought, a reset may have removed the comment, or a switch gone off or
  // the account been disconnected; the reply then goes nowhere, and no one needs a handoff for it.
  const s = stores(ctx.db);
  const account = s.accounts.get(comment.integration_id);
  if (!s.comments.get(comment.id) || !aiCommentRepliesOn(account, commentSettings(s, ctx.clock.iso()))) return;
  if (outcome.kind === 'failed') return handOffComment(ctx, comment, outcome.reason);
  try {
    const reply = addCommentReply(ctx, comment.id, outcome.reply, 'ai');
    ctx.logger.debug({ reply_id: reply.id, via: outcome.via }, 'AI comment reply posted');
  } catch (error) {
    handOffComment(ctx, comment, `the reply was refused: ${(error as Error).message}`);
  }
}

/**
 * After a comment no keyword rule answered: queues its AI reply (task `comment_reply`), off the
 * request. The caller has checked both switches (org-wide and the account's). A full queue hands off
 * at once, so no comment is silently dropped.
 */
export function startCommentReply(ctx: EmulatorContext, comment: Comment): void {
  const queued = queueRecordedReply(ctx, { task: 'comment_reply', comment_id: comment.id }, (signal) =>
    answerComment(ctx, comment, signal),
  );
  if (!queued) handOffComment(ctx, comment, 'too many AI replies waiting');
}
