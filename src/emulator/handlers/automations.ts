import type { endpoints } from '../../api/endpoints/index.js';
import { triggerAutomation } from '../domain/automations.js';
import type { RouteHandlers } from '../route-handler.js';
import { stores } from '../state/stores.js';

export const automationsHandlers = {
  list: ({ query }, ctx) => stores(ctx.db).automations.list({ limit: query.limit, cursor: query.cursor }),
  get: ({ params }, ctx) => stores(ctx.db).automations.require(params.id, 'automation'),
  trigger: ({ params, body }, ctx) => triggerAutomation(ctx, params.id, body),
} satisfies RouteHandlers<typeof endpoints.automations>;
