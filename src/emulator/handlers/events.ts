import { enroll, quotaRefusal, requireVariables } from '../domain/trigger/enroll.js';
import type { endpoints } from '../../api/endpoints/index.js';
import type { RouteHandlers } from '../route-handler.js';
import { stores } from '../state/stores.js';

export const eventsHandlers = {
  /**
   * A business event enrolls the phone in every active journey whose `events` names it (docs/outbound.md).
   * All are checked (variables, and the monthly quota's room for every one) before any enrolls, so a
   * refusal leaves nothing half done; no match is not an error.
   */
  fire: ({ body }, ctx) => {
    const metadata = body.metadata ?? {};
    const journeys = stores(ctx.db)
      .journeys.all({ status: 'active' })
      .filter((j) => j.events.includes(body.event))
      .reverse();
    for (const journey of journeys) requireVariables(journey, metadata);
    const refusal = quotaRefusal(ctx, journeys.length);
    if (refusal) throw refusal;
    const enrollments = journeys.map((journey) => enroll(ctx, journey, { phone: body.phone, metadata }));
    return {
      id: ctx.newId('bev'),
      event: body.event,
      matched_journeys: journeys.map((j) => j.id),
      enrollment_ids: enrollments.map((e) => e.id),
      created_at: body.occurred_at ?? ctx.clock.iso(),
    };
  },
} satisfies RouteHandlers<typeof endpoints.events>;
