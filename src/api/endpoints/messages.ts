import { Message, MessageListQuery, MessageSend, Reaction, ReactionPut } from '../schemas/message.js';
import { endpoint } from '../endpoint.js';
import { page } from '../schemas/page.js';
import { IdParams, synthetic } from '../schemas/common.js';

export const messages = {
  list: endpoint({
    method: 'GET',
    path: '/v1/messages',
    summary: 'List sent and received messages with delivery status',
    scope: 'messages:read',
    query: MessageListQuery,
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
    body: ReactionPut,
    response: Reaction,
  }),
};
