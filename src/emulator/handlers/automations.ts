import type { endpoints } from '../../api/endpoints/index.js';
import { SCHEDULED_RUNS_PER_WAKE } from '../domain/automations/automation-bounds.js';
import { triggerAutomation } from '../domain/automations/automations.js';
import { runDueSchedules } from '../domain/automations/scheduled-automations.js';
import type { EmulatorContext, RouteHandlers } from '../route-handler.js';
import { stores } from '../state/stores.js';

/** A read first runs what fell due (the scheduler would, a moment later), so a test that moved the clock sees it. */
function catchUp(ctx: EmulatorContext) {
  runDueSchedules(ctx, SCHEDULED_RUNS_PER_WAKE);
  return stores(ctx.db).automations;
}

export const automationsHandlers = {
  list: ({ query }, ctx) => catchUp(ctx).list({ limit: query.limit, cursor: query.cursor }),
  get: ({ params }, ctx) => catchUp(ctx).require(params.id, 'automation'),
  trigger: ({ params, body }, ctx) => triggerAutomation(ctx, params.id, body),
} satisfies RouteHandlers<typeof endpoints.automations>;
