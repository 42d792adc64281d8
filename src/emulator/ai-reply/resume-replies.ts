import type { EmulatorContext } from '../route-handler.js';
import { stores } from '../state/stores.js';
import { startCommentReply } from './answer-comment.js';
import { takeWaitingReplies } from './pending-replies.js';
import { startAiReply } from './reply-to-message.js';

/**
 * Asks again the AI replies a stopped emulator or an imported state left waiting (pending-replies.ts), each
 * through the path that first asked it, so the gates are checked again (a conversation since assigned gets none).
 */
export function resumeAiReplies(ctx: EmulatorContext): number {
  const s = stores(ctx.db);
  let resumed = 0;
  for (const job of takeWaitingReplies(ctx.db)) {
    if (job.task === 'reply') {
      const message = s.messages.get(job.message_id);
      const conversation = message && s.conversations.get(message.conversation_id);
      if (!message || !conversation) continue;
      startAiReply(ctx, message, conversation);
    } else {
      const comment = s.comments.get(job.comment_id);
      if (!comment) continue;
      startCommentReply(ctx, comment);
    }
    resumed++;
  }
  return resumed;
}
