// The emulator's AI replies (docs/custom-reply.md): the gates, the custom reply call, the checks, handoff.
export { AiReplyQueue, type AiReplyJobs, type AiReplyQueueOptions } from './ai-reply-queue.js';
export { startAiReply, replyToMessage, aiRepliesOn } from './reply-to-message.js';
export { replyToComment, type CommentToAnswer } from './reply-to-comment.js';
export { type ReplyOutcome } from './produce-reply.js';
export { claimedActions, unverifiedClaim } from './action-claims.js';
export { ACTION_VOCABULARY } from './action-vocabulary.js';
