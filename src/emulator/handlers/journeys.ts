import { createJourney, replaceJourneySteps, setJourneyStatus } from '../domain/journeys/create-journey.js';
import type { endpoints } from '../../api/endpoints/index.js';
import type { RouteHandlers } from '../route-handler.js';
import { stores } from '../state/stores.js';

export const journeysHandlers = {
  list: ({ query }, ctx) =>
    stores(ctx.db).journeys.listJson({ limit: query.limit, cursor: query.cursor, where: { status: query.status } }),
  create: ({ body }, ctx) => createJourney(ctx, body),
  get: ({ params }, ctx) => stores(ctx.db).journeys.require(params.id, 'journey'),
  replaceSteps: ({ params, body }, ctx) => replaceJourneySteps(ctx, params.id, body.steps),
  setStatus: ({ params, body }, ctx) => setJourneyStatus(ctx, params.id, body.status),
} satisfies RouteHandlers<typeof endpoints.journeys>;
