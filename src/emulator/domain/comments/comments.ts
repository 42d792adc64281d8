import type { z } from 'zod';
import type { CommentReply, CommentSettings, CommentSettingsUpdate } from '../../../api/schemas/comment.js';
import { ApiFailure } from '../../api-failure.js';
import type { EmulatorContext } from '../../route-handler.js';
import { requireOutboundQuota } from '../usage/monthly-quota.js';
import {
  type Account,
  COMMENT_SETTINGS_ID,
  type CommentRecord,
  type CommentSettingsRecord,
} from '../../state/records.js';
import { stores, type Stores } from '../../state/stores.js';

/**
 * Replies one comment keeps (the emulator's own bound, docs/ai-and-knowledge.md): a comment is stored
 * with its replies inside it, so their number is bounded like any list.
 */
export const COMMENT_REPLIES_MAX = 50;

/** The settings of a workspace that has none stored yet: AI comment replies off, no rules. */
function defaultSettings(updatedAt: string): CommentSettingsRecord {
  return { id: COMMENT_SETTINGS_ID, ai_replies_enabled: false, rules: [], updated_at: updatedAt };
}

function storedSettings(s: Stores, now: string): CommentSettingsRecord {
  return s.commentSettings.get(COMMENT_SETTINGS_ID) ?? defaultSettings(now);
}

const withoutId = ({ id: _id, ...settings }: CommentSettingsRecord): CommentSettings => settings;

/** The workspace's comment settings: the org-wide AI switch and the keyword rules, in order. */
export function commentSettings(s: Stores, now: string): CommentSettings {
  return withoutId(storedSettings(s, now));
}

type CommentAccount = Account & { channel: Exclude<Account['channel'], 'phone'> };

/**
 * The account named at body field `path`, which must have comments (a photo-social account or a social
 * page): 404 when unknown, 422 INVALID_PLATFORM for a phone account. Used by a rule and by a comment.
 */
export function requireCommentAccount(s: Stores, integrationId: string, path: string): CommentAccount {
  const account = s.accounts.require(integrationId, 'connected account');
  if (account.channel === 'phone') {
    throw new ApiFailure(
      'INVALID_PLATFORM',
      `${path} names ${integrationId}, a phone account; comments exist on photo_social and social_page accounts only`,
      { details: [{ path, in: 'body', message: 'not a photo_social or social_page account' }] },
    );
  }
  return { ...account, channel: account.channel };
}

/**
 * PATCH /v1/comments/settings: the switch and, when `rules` is given, the whole rule list (new ids,
 * `enabled` true and `integration_id` null unless given). A rule naming an unknown account is 404, a
 * phone account 422 INVALID_PLATFORM; nothing is changed then.
 */
export function updateCommentSettings(
  ctx: EmulatorContext,
  patch: z.output<typeof CommentSettingsUpdate>,
): CommentSettings {
  const s = stores(ctx.db);
  const now = ctx.clock.iso();
  patch.rules?.forEach((rule, i) => {
    if (rule.integration_id) requireCommentAccount(s, rule.integration_id, `rules.${i}.integration_id`);
  });
  const current = storedSettings(s, now);
  return withoutId(
    s.commentSettings.put({
      ...current,
      ai_replies_enabled: patch.ai_replies_enabled ?? current.ai_replies_enabled,
      rules:
        patch.rules?.map((rule) => ({
          id: ctx.newId('crl'),
          keywords: rule.keywords,
          reply: rule.reply,
          integration_id: rule.integration_id ?? null,
          enabled: rule.enabled ?? true,
        })) ?? current.rules,
      updated_at: now,
    }),
  );
}

/**
 * May the AI reply to comments on this account now: both switches on (the workspace's
 * `ai_replies_enabled` and the account's `ai_comment_replies_enabled`) and the account connected, as a
 * reply through the API must be. Asked when a comment arrives and again when the endpoint has answered.
 */
export function aiCommentRepliesOn(account: Account | undefined, settings: CommentSettings): boolean {
  return account?.status === 'active' && account.ai_comment_replies_enabled && settings.ai_replies_enabled;
}

/**
 * Adds a reply to a stored comment, in one transaction. At {@link COMMENT_REPLIES_MAX} replies the
 * comment takes no more: 422 INVALID_STATE; nor does an AI reply past the plan's monthly AI-reply quota.
 */
export function addCommentReply(
  ctx: EmulatorContext,
  commentId: string,
  content: string,
  source: CommentReply['source'],
): CommentReply {
  const s = stores(ctx.db);
  if (source === 'ai') requireOutboundQuota(ctx, 'ai_replies');
  const reply: CommentReply = {
    id: ctx.newId('crp'),
    comment_id: commentId,
    content,
    source,
    created_at: ctx.clock.iso(),
  };
  s.comments.update(commentId, (comment: CommentRecord) => {
    if (comment.replies.length >= COMMENT_REPLIES_MAX) {
      throw new ApiFailure(
        'INVALID_STATE',
        `Comment ${commentId} has ${COMMENT_REPLIES_MAX} replies, the most one comment keeps; no reply was added`,
      );
    }
    return { ...comment, replies: [...comment.replies, reply] };
  });
  return reply;
}

/** POST /v1/comments/:id/reply with a live key: a reply from the API, on an active account. */
export function replyByApi(ctx: EmulatorContext, commentId: string, content: string): CommentReply {
  const s = stores(ctx.db);
  const comment = s.comments.require(commentId, 'comment');
  const account = s.accounts.get(comment.integration_id);
  if (account?.status !== 'active') {
    throw new ApiFailure(
      'INVALID_STATE',
      `Account ${comment.integration_id} of comment ${commentId} is not connected; a reply cannot be posted`,
    );
  }
  return addCommentReply(ctx, commentId, content, 'api');
}
