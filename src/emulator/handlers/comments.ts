import type { endpoints } from '../../api/endpoints/index.js';
import { commentSettings, replyByApi, updateCommentSettings } from '../domain/comments/comments.js';
import type { RouteHandlers } from '../route-handler.js';
import { stores } from '../state/stores.js';

export const commentsHandlers = {
  list: ({ query }, ctx) =>
    stores(ctx.db).comments.listJson({
      limit: query.limit,
      cursor: query.cursor,
      where: { integration_id: query.integration_id },
    }),
  get: ({ params }, ctx) => stores(ctx.db).comments.require(params.id, 'comment'),
  reply: ({ params, body }, ctx) => replyByApi(ctx, params.id, body.content),
  getSettings: (_req, ctx) => commentSettings(stores(ctx.db), ctx.clock.iso()),
  updateSettings: ({ body }, ctx) => updateCommentSettings(ctx, body),
} satisfies RouteHandlers<typeof endpoints.comments>;
