import { z } from 'zod';
import { Id } from '../../resources/index.js';
import { text } from '../../api/schemas/common.js';
import { Comment, COMMENT_MAX_CHARS } from '../../api/schemas/comment.js';
import { startCommentReply } from '../ai-reply/answer-comment.js';
import { firstMatchingRule } from '../domain/comments/comment-rules.js';
import {
  addCommentReply,
  aiCommentRepliesOn,
  commentSettings,
  requireCommentAccount,
} from '../domain/comments/comments.js';
import type { EmulatorContext } from '../route-handler.js';
import { control } from '../platform/controls-router.js';
import { stores } from '../state/stores.js';

/** The post a comment lands on when the body names none. */
export const DEFAULT_POST_ID = 'post_latest';

export const CommentBody = z.strictObject({
  /** The photo-social account or social page the comment is on. */
  integration_id: Id,
  /** @default 'post_latest' */
  post_id: Id.optional(),
  from: z.strictObject({ handle: text(200), name: text(200).optional() }),
  content: text(COMMENT_MAX_CHARS),
});
export type CommentBody = z.output<typeof CommentBody>;

export const CommentResult = z.object({
  /** The comment as stored, with the rule's reply when a rule answered. */
  comment: Comment,
  /** The keyword rule that answered, or null. */
  rule_id: z.string().nullable(),
  /** True when no rule answered and both AI switches are on: the AI reply follows, off the request. */
  ai_reply_queued: z.boolean(),
});
export type CommentResult = z.output<typeof CommentResult>;

/**
 * A customer comments on a post (`POST /_emulator/comment`, docs/emulator.md): the comment is stored;
 * the first matching keyword rule replies (source `rule`); else, when the org-wide AI comment switch and
 * the account's `ai_comment_replies_enabled` are both on and the account is connected, an AI reply is
 * queued (task `comment_reply`).
 * No webhook event is sent: the service has none for comments.
 */
export function receiveComment(ctx: EmulatorContext, body: CommentBody): CommentResult {
  const s = stores(ctx.db);
  const account = requireCommentAccount(s, body.integration_id, 'integration_id');
  const now = ctx.clock.iso();
  const settings = commentSettings(s, now);
  const rule = firstMatchingRule(settings.rules, account.integration_id, body.content);
  let comment = s.comments.insert({
    id: ctx.newId('cmt'),
    integration_id: account.integration_id,
    channel: account.channel,
    post_id: body.post_id ?? DEFAULT_POST_ID,
    author: { handle: body.from.handle, name: body.from.name ?? null },
    content: body.content,
    replies: [],
    created_at: now,
  });
  if (rule) {
    const reply = addCommentReply(ctx, comment.id, rule.reply, 'rule');
    comment = { ...comment, replies: [reply] };
  }
  const aiOn = !rule && aiCommentRepliesOn(account, settings);
  if (aiOn) startCommentReply(ctx, comment);
  return { comment, rule_id: rule?.id ?? null, ai_reply_queued: aiOn };
}

export const commentControl = control({
  path: '/comment',
  summary:
    'A customer comments on a photo-social post or social page: the first matching keyword rule replies, ' +
    'else an AI reply when both comment AI switches are on',
  body: CommentBody,
  response: CommentResult,
  errors: ['NOT_FOUND', 'INVALID_PLATFORM'],
  status: 201,
  run: (ctx, { body }) => receiveComment(ctx, body),
});
