import { createConnectSession, updateAccount } from '../domain/channels.js';
import type { ImplementedHandlers } from '../platform/pending.js';
import { stores } from '../state/stores.js';

export const channelsHandlers = {
  list: ({ query }, ctx) =>
    stores(ctx.db).accounts.list({
      limit: query.limit,
      cursor: query.cursor,
      where: { channel: query.channel, group_id: query.group_id },
    }),
  createConnectSession: ({ body }, ctx) => createConnectSession(ctx, body),
  update: ({ params, body }, ctx) => updateAccount(ctx, params.integration_id, body),
} satisfies ImplementedHandlers<'channels'>;
