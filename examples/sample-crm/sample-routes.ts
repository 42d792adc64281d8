import { type Receiver } from 'convo-kit/receiver';
import {
  contactLabels,
  type CrmContext,
  CRM_PANELS,
  type Panel,
  type Route,
  sendJson,
} from '../../templates/crm-sync/src/index.js';
import { OUTBOUND_PANELS } from './outbound-routes.js';
import { type RouteOutcome, type RoutingContext } from '../../templates/ticket-routing/src/index.js';

const MAX_SHOWN = 100;

/**
 * The sample's page: the CRM's panels, then every ticket in the service, the journey enrollments and
 * campaigns (outbound-routes.ts), and the receiver's deliveries.
 */
export const SAMPLE_PANELS: Panel[] = [
  ...CRM_PANELS,
  {
    title: 'Tickets',
    url: '/api/tickets',
    columns: ['subject', 'contact', 'priority', 'status', 'assignee', 'rule', 'sla_due_at', 'updated_at'],
  },
  ...OUTBOUND_PANELS,
  { title: 'Webhook deliveries', url: '/api/deliveries', columns: ['receivedAt', 'event', 'id', 'status', 'attempts'] },
];

/**
 * GET /api/tickets: the service's tickets, newest first (the seeded ones too, which the router never saw but
 * the SLA watch escalates), each with the router's decision when it made one and the contact's name.
 * GET /api/deliveries: the receiver's deliveries.
 */
export function sampleRoutes(
  receiver: Receiver,
  crm: CrmContext,
  routing: RoutingContext,
  outcomes: Map<string, RouteOutcome>,
): Route {
  return async (req, res, url) => {
    if (req.method !== 'GET') return false;
    if (url.pathname === '/api/tickets') {
      const page = await routing.client.tickets.list({ limit: MAX_SHOWN });
      const names = contactLabels(
        crm.db,
        page.data.flatMap((ticket) => ticket.contact_id ?? []),
      );
      const data = page.data.map((ticket) => {
        const outcome = outcomes.get(ticket.id);
        return {
          ...ticket,
          contact: ticket.contact_id === null ? null : (names.get(ticket.contact_id) ?? null),
          result: outcome?.result ?? null,
          rule: outcome?.result === 'routed' ? outcome.rule : null,
        };
      });
      sendJson(res, 200, { data });
      return true;
    }
    if (url.pathname === '/api/deliveries') {
      const page = await receiver.store.list({ limit: MAX_SHOWN });
      sendJson(res, 200, { data: page.data });
      return true;
    }
    return false;
  };
}
