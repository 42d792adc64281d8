import type { endpoints } from '../../api/endpoints/index.js';
import type { RouteHandlers } from '../route-handler.js';
import { catchUpDeliveries } from '../domain/messages/delivery-progress.js';
import { sendMessage } from '../domain/messages/send-message.js';
import { updateConversation } from '../domain/conversations/update-conversation.js';
import { stores } from '../state/stores.js';

export const conversationsHandlers = {
  list: ({ query }, ctx) =>
    stores(ctx.db).conversations.listJson({
      limit: query.limit,
      cursor: query.cursor,
      where: { status: query.status, channel: query.channel, assignee: query.assignee },
    }),
  get: ({ params }, ctx) => stores(ctx.db).conversations.require(params.id, 'conversation'),
  update: ({ params, body }, ctx) => updateConversation(ctx, params.id, body),
  listMessages: ({ params, query }, ctx) => {
    const s = stores(ctx.db);
    s.conversations.require(params.id, 'conversation');
    catchUpDeliveries(ctx);
    return s.messages.listJson({ limit: query.limit, cursor: query.cursor, where: { conversation_id: params.id } });
  },
  sendMessage: ({ params, body }, ctx) =>
    sendMessage(ctx, stores(ctx.db).conversations.require(params.id, 'conversation'), body),
} satisfies RouteHandlers<typeof endpoints.conversations>;
