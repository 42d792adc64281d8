import type { endpoints } from '../../api/endpoints/index.js';
import { createConnectSession, updateAccount } from '../domain/channels/channels.js';
import { deleteProvider, listProviders, putProvider } from '../domain/groups/providers.js';
import type { RouteHandlers } from '../route-handler.js';
import { stores } from '../state/stores.js';

const account = (id: string) => ({ owner: 'channel' as const, id });

export const channelsHandlers = {
  list: ({ query }, ctx) =>
    stores(ctx.db).accounts.listJson({
      limit: query.limit,
      cursor: query.cursor,
      where: { channel: query.channel, group_id: query.group_id },
    }),
  createConnectSession: ({ body }, ctx) => createConnectSession(ctx, body),
  update: ({ params, body }, ctx) => updateAccount(ctx, params.integration_id, body),
  listProviders: ({ params, query }, ctx) => listProviders(ctx, account(params.integration_id), query),
  putProvider: ({ params, body }, ctx) => putProvider(ctx, account(params.integration_id), params.provider, body),
  deleteProvider: ({ params }, ctx) => deleteProvider(ctx, account(params.integration_id), params.provider),
} satisfies RouteHandlers<typeof endpoints.channels>;
