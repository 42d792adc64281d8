import { z } from 'zod';
import { Id, Timestamp, visibleText } from './common.js';
import { PageQuery } from './page.js';

/**
 * The length bound of a comment and of every reply to one (API, keyword rule, AI): the photo-social channel's
 * own limit, one for both (docs/ai-and-knowledge.md).
 */
export const COMMENT_MAX_CHARS = 2200;

export const CommentReply = z.looseObject({
  id: z.string(),
  comment_id: z.string(),
  content: z.string(),
  source: z.enum(['ai', 'api', 'dashboard', 'rule']),
  created_at: Timestamp,
});
export type CommentReply = z.output<typeof CommentReply>;

/** A tracked comment on a photo-social post or a social page. */
export const Comment = z.looseObject({
  id: z.string(),
  integration_id: z.string(),
  channel: z.enum(['photo_social', 'social_page']),
  post_id: z.string(),
  author: z.looseObject({ handle: z.string(), name: z.string().nullable() }),
  content: z.string(),
  /** Oldest first. */
  replies: z.array(CommentReply),
  created_at: Timestamp,
});
export type Comment = z.output<typeof Comment>;

export const CommentReplyCreate = z.strictObject({ content: visibleText(COMMENT_MAX_CHARS) });

/** A keyword rule: a comment containing one of `keywords` (whole words, case-insensitive) gets `reply`. */
export const CommentRule = z.looseObject({
  id: z.string(),
  keywords: z.array(z.string()),
  reply: z.string(),
  /** Limits the rule to one connected page; null = every account. */
  integration_id: z.string().nullable(),
  enabled: z.boolean(),
});
export type CommentRule = z.output<typeof CommentRule>;

export const CommentSettings = z.looseObject({
  /** AI auto-replies to comments, org-wide (each account also has its own switch). */
  ai_replies_enabled: z.boolean(),
  rules: z.array(CommentRule),
  updated_at: Timestamp,
});
export type CommentSettings = z.output<typeof CommentSettings>;

export const COMMENT_RULES_MAX = 50;

/** `rules` given replaces the whole rule list (in order: the first rule that matches a comment answers it). */
export const CommentSettingsUpdate = z.strictObject({
  ai_replies_enabled: z.boolean().optional(),
  rules: z
    .array(
      z.strictObject({
        /** A blank keyword could never match (docs/ai-and-knowledge.md, Comments). */
        keywords: z.array(visibleText(100)).min(1).max(50),
        reply: visibleText(COMMENT_MAX_CHARS),
        integration_id: Id.nullable().optional(),
        /** @default true */
        enabled: z.boolean().optional(),
      }),
    )
    .max(COMMENT_RULES_MAX)
    .optional(),
});

/** Filters of GET /v1/comments. */
export const CommentListQuery = PageQuery.extend({ integration_id: Id.optional() });
