import { Conversation, ConversationListQuery, ConversationUpdate } from '../schemas/conversation.js';
import { ConversationMessageSend, Message } from '../schemas/message.js';
import { endpoint } from '../endpoint.js';
import { page, PageQuery } from '../schemas/page.js';
import { IdParams, synthetic } from '../schemas/common.js';

export const conversations = {
  list: endpoint({
    method: 'GET',
    path: '/v1/conversations',
    summary:
      'List conversations, newest first (by creation, so a cursor walk never skips or repeats a conversation whose activity changes)',
    scope: 'conversations:read',
    query: ConversationListQuery,
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
    body: ConversationMessageSend,
    response: synthetic(Message),
    status: 201,
    idempotencyKey: 'required',
    testKeySynthetic: true,
  }),
};
