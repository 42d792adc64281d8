import { createCampaign, sendCampaign, updateCampaign } from '../domain/campaigns/campaign-changes.js';
import { withStats } from '../domain/campaigns/campaign-sender.js';
import { catchUpDeliveries } from '../domain/messages/delivery-progress.js';
import type { endpoints } from '../../api/endpoints/index.js';
import type { RouteHandlers } from '../route-handler.js';
import { stores } from '../state/stores.js';

export const campaignsHandlers = {
  list: ({ query }, ctx) => {
    catchUpDeliveries(ctx);
    const page = stores(ctx.db).campaigns.list({
      limit: query.limit,
      cursor: query.cursor,
      where: { status: query.status },
    });
    return { ...page, data: page.data.map((c) => withStats(ctx.db, c)) };
  },
  create: ({ body }, ctx) => createCampaign(ctx, body),
  get: ({ params }, ctx) => {
    catchUpDeliveries(ctx);
    return withStats(ctx.db, stores(ctx.db).campaigns.require(params.id, 'campaign'));
  },
  update: ({ params, body }, ctx) => updateCampaign(ctx, params.id, body),
  send: ({ params }, ctx) => sendCampaign(ctx, params.id),
} satisfies RouteHandlers<typeof endpoints.campaigns>;
