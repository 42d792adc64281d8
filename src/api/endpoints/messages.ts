import { z } from 'zod';
import { MessageDeliveryStatus, Message, MessageDirection, MessageInput } from '../../resources/message.js';
import { endpoint, page, PageQuery } from '../endpoint.js';
import { Id, IdParams, Platform, synthetic } from '../schemas/common.js';

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

export const messages = {
  list: endpoint({
    method: 'GET',
    path: '/v1/messages',
    summary: 'List sent and received messages with delivery status',
    scope: 'messages:read',
    query: PageQuery.extend({
      conversation_id: Id.optional(),
      direction: MessageDirection.optional(),
      delivery_status: MessageDeliveryStatus.optional(),
      channel: Platform.optional(),
    }),
    response: page(Message),
    paginated: true,
  }),
  send: endpoint({
    method: 'POST',
    path: '/v1/messages',
    summary: 'Send free-form content on a conversation, or on a contact’s conversation of a channel',
    scope: 'messages:send',
    body: MessageSend,
    response: synthetic(Message),
    status: 201,
    idempotencyKey: 'required',
    testKeySynthetic: true,
  }),
  get: endpoint({
    method: 'GET',
    path: '/v1/messages/:id',
    summary: 'One message with content and delivery status',
    scope: 'messages:read',
    params: IdParams,
    response: Message,
  }),
  react: endpoint({
    method: 'POST',
    path: '/v1/messages/:id/reaction',
    summary: 'Set or clear (empty emoji) a reaction on an inbound phone-channel message',
    scope: 'messages:send',
    params: IdParams,
    body: z.strictObject({ emoji: ReactionEmoji }),
    response: Reaction,
  }),
};
