import { z } from 'zod';
import { Channel, HttpsUrl, Id, Platform, Timestamp } from './common.js';
import { PageQuery } from './page.js';

export const MediaType = z.enum(['image', 'document', 'audio', 'video']);

export const Media = z.object({
  type: MediaType,
  url: HttpsUrl,
  caption: z.string().max(1024).optional(),
  filename: z.string().max(255).optional(),
});
export type Media = z.output<typeof Media>;

export const CtaUrl = z.object({
  url: HttpsUrl,
  display_text: z.string().min(1).max(20),
});
export type CtaUrl = z.output<typeof CtaUrl>;

export const Buttons = z.array(z.string().min(1).max(20)).min(1).max(10);

/** A message's text: 1 to 4096 characters (spec, Limits); a filled template or automation is bound by it too. */
export const MESSAGE_CONTENT_MAX_CHARS = 4096;
export const MessageContent = z.string().min(1).max(MESSAGE_CONTENT_MAX_CHARS);

/**
 * The message input object of both send routes (spec, Message input object). Strict to the last level, as
 * every request body is: a misspelt `caption` inside `media` was dropped and the message sent without it.
 * `Media` and `CtaUrl` stay tolerant as parts of a message the service answers.
 */
export const MessageInput = z.strictObject({
  content: MessageContent,
  integration_id: Id.optional(),
  media: Media.strict().optional(),
  buttons: Buttons.optional(),
  cta_url: CtaUrl.strict().optional(),
});
export type MessageInput = z.output<typeof MessageInput>;

export const MessageDeliveryStatus = z.enum(['queued', 'sent', 'delivered', 'read', 'failed']);
export const MessageSource = z.enum(['ai', 'dashboard', 'api', 'automation', 'journey']);
export const MessageDirection = z.enum(['sent', 'received']);

export const Message = z.looseObject({
  id: z.string(),
  conversation_id: z.string(),
  integration_id: z.string(),
  channel: Channel,
  direction: MessageDirection,
  content: z.string(),
  media: Media.nullable(),
  buttons: z.array(z.string()).nullable(),
  cta_url: CtaUrl.nullable(),
  delivery_status: MessageDeliveryStatus,
  source: MessageSource.nullable(),
  error: z.object({ code: z.string(), reason: z.string() }).nullable(),
  created_at: Timestamp,
});
export type Message = z.output<typeof Message>;

/** Filters of GET /v1/messages. */
export const MessageListQuery = PageQuery.extend({
  conversation_id: Id.optional(),
  direction: MessageDirection.optional(),
  delivery_status: MessageDeliveryStatus.optional(),
  channel: Platform.optional(),
});

/** POST /v1/conversations/:id/messages: the message input object alone; the conversation is in the path. */
export const ConversationMessageSend = z.strictObject(MessageInput.shape);

/**
 * POST /v1/messages: the message input object plus where to send it: `conversation_id`, or
 * `contact_id` with `channel` for the contact's existing conversation (409 ACCOUNT_REQUIRED when ambiguous).
 */
export const MessageSend = z
  .strictObject({
    ...MessageInput.shape,
    conversation_id: Id.optional(),
    contact_id: Id.optional(),
    channel: Platform.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.conversation_id !== undefined) {
      if (body.contact_id !== undefined || body.channel !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['conversation_id'],
          message: 'expected either conversation_id, or contact_id with channel, not both',
        });
      }
      return;
    }
    if (body.contact_id === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['conversation_id'],
        message: 'expected conversation_id, or contact_id with channel',
      });
    else if (body.channel === undefined)
      ctx.addIssue({ code: 'custom', path: ['channel'], message: 'expected channel together with contact_id' });
  });

/** Reaction emoji: at most 8 characters (code points), or empty to clear. */
export const ReactionEmoji = z
  .string()
  .max(32)
  .refine((emoji) => [...emoji].length <= 8, { message: 'expected at most 8 characters, or an empty string to clear' })
  .meta({ maxLength: 8 });

export const Reaction = z.looseObject({ message_id: z.string(), emoji: z.string().nullable() });

/** POST /v1/messages/:id/reaction. */
export const ReactionPut = z.strictObject({ emoji: ReactionEmoji });
