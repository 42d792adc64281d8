import type { endpoints } from '../../api/endpoints/index.js';
import type { RouteHandlers } from '../route-handler.js';
import { moveLead, updateLead } from '../domain/pipeline/pipeline.js';
import { stores } from '../state/stores.js';

export const pipelineHandlers = {
  listLeads: ({ query }, ctx) =>
    stores(ctx.db).leads.listJson({
      limit: query.limit,
      cursor: query.cursor,
      where: { stage: query.stage, owner: query.owner },
    }),
  getLead: ({ params }, ctx) => stores(ctx.db).leads.require(params.id, 'lead'),
  updateLead: ({ params, body }, ctx) => updateLead(ctx, params.id, body),
  moveLead: ({ params, body }, ctx) => moveLead(ctx, params.id, body.stage),
  // Stored so that newest first is board order (see seed).
  listStages: ({ query }, ctx) => stores(ctx.db).stages.listJson({ limit: query.limit, cursor: query.cursor }),
} satisfies RouteHandlers<typeof endpoints.pipeline>;
