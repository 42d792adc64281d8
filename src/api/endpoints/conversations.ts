import { z } from 'zod';
import { Conversation, ConversationStatus } from '../../resources/conversation.js';
import { Message, MessageInput } from '../../resources/message.js';
import { endpoint, page, PageQuery } from '../endpoint.js';
import { IdParams, Platform, synthetic, text } from '../schemas/common.js';

const Tag = text(64);

export const ConversationUpdate = z.strictObject({
  status: ConversationStatus.optional(),
  assignee: text(100).nullable().optional(),
  /** Replaces the tag list. */
  tags: z.array(Tag).max(50).optional(),
  stage: text(64).optional(),
  routing: z.strictObject({ team: text(100).nullable().optional(), queue: text(100).nullable().optional() }).optional(),
});

export const conversations = {
  list: endpoint({
    method: 'GET',
    path: '/v1/conversations',
    summary:
      'List conversations, newest first (by creation, so a cursor walk never skips or repeats a conversation whose activity changes)',
    scope: 'conversations:read',
    query: PageQuery.extend({
      status: ConversationStatus.optional(),
      channel: Platform.optional(),
      assignee: text(100).optional(),
    }),
    response: page(Conversation),
    paginated: true,
  }),
  get: endpoint({
    method: 'GET',
    path: '/v1/conversations/:id',
    summary: 'Fetch one conversation',
    scope: 'conversations:read',
    params: IdParams,
    response: Conversation,
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/v1/conversations/:id',
    summary: 'Update status, assignee, tags, stage or routing fields',
    scope: 'conversations:write',
    params: IdParams,
    body: ConversationUpdate,
    response: Conversation,
  }),
  listMessages: endpoint({
    method: 'GET',
    path: '/v1/conversations/:id/messages',
    summary: 'Message history of a conversation, newest first',
    scope: 'messages:read',
    params: IdParams,
    query: PageQuery,
    response: page(Message),
    paginated: true,
  }),
  sendMessage: endpoint({
    method: 'POST',
    path: '/v1/conversations/:id/messages',
    summary:
      "Send on the conversation's channel; `integration_id`, when given, must be the conversation's account (409 ACCOUNT_MISMATCH)",
    scope: 'messages:send',
    params: IdParams,
    body: z.strictObject(MessageInput.shape),
    response: synthetic(Message),
    status: 201,
    idempotencyKey: 'required',
    testKeySynthetic: true,
  }),
};
