import type { endpoints } from '../../api/endpoints/index.js';
import type { RouteHandlers } from '../route-handler.js';
import { ApiFailure } from '../api-failure.js';
import { catchUpDeliveries } from '../domain/messages/delivery-progress.js';
import { resolveConversation } from '../domain/conversations/resolve-conversation.js';
import { sendMessage } from '../domain/messages/send-message.js';
import { stores } from '../state/stores.js';

export const messagesHandlers = {
  list: ({ query }, ctx) => {
    catchUpDeliveries(ctx);
    return stores(ctx.db).messages.listJson({
      limit: query.limit,
      cursor: query.cursor,
      where: {
        conversation_id: query.conversation_id,
        direction: query.direction,
        delivery_status: query.delivery_status,
        channel: query.channel,
      },
    });
  },
  send: ({ body }, ctx) => {
    const { conversation_id, contact_id, channel, ...input } = body;
    const conversation = resolveConversation(stores(ctx.db), {
      conversation_id,
      contact_id,
      channel,
      integration_id: input.integration_id,
    });
    return sendMessage(ctx, conversation, input);
  },
  get: ({ params }, ctx) => {
    catchUpDeliveries(ctx);
    return stores(ctx.db).messages.require(params.id, 'message');
  },
  react: ({ params, body }, ctx) => {
    const { messages } = stores(ctx.db);
    const message = messages.require(params.id, 'message');
    // The provider takes reactions only on the phone channel, and only on what the customer sent.
    if (message.channel !== 'phone') {
      throw new ApiFailure(
        'INVALID_PLATFORM',
        `Reactions are not available on the ${message.channel} channel, only on phone messages`,
      );
    }
    if (message.direction !== 'received') {
      throw new ApiFailure(
        'INVALID_STATE',
        `Message ${message.id} was sent by the business; reactions go on messages the customer sent`,
      );
    }
    const emoji = body.emoji === '' ? null : body.emoji;
    messages.put({ ...message, reaction: emoji });
    return { message_id: message.id, emoji };
  },
} satisfies RouteHandlers<typeof endpoints.messages>;
