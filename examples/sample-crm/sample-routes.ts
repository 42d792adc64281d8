import { type Receiver } from 'convo-kit/receiver';
import { CRM_PANELS, type Panel, type Route, sendJson } from '../../templates/crm-sync/src/index.js';
import { type RouteOutcome, type RoutingContext } from '../../templates/ticket-routing/src/index.js';

const MAX_SHOWN = 100;

/** The sample's page: the CRM's panels, then the tickets the router handled and the receiver's deliveries. */
export const SAMPLE_PANELS: Panel[] = [
  ...CRM_PANELS,
  {
    title: 'Routed tickets',
    url: '/api/tickets',
    columns: ['id', 'subject', 'priority', 'status', 'assignee', 'rule', 'version'],
  },
  { title: 'Webhook deliveries', url: '/api/deliveries', columns: ['receivedAt', 'event', 'id', 'status', 'attempts'] },
];

/** GET /api/tickets (each ticket the router saw, as the service has it now) and GET /api/deliveries. */
export function sampleRoutes(receiver: Receiver, routing: RoutingContext, outcomes: Map<string, RouteOutcome>): Route {
  return async (req, res, url) => {
    if (req.method !== 'GET') return false;
    if (url.pathname === '/api/tickets') {
      const shown = [...outcomes.values()].slice(-MAX_SHOWN);
      const data = await Promise.all(
        shown.map(async (outcome) => {
          const ticket = await routing.client.tickets.get({ id: outcome.ticketId });
          return { ...ticket, result: outcome.result, rule: outcome.result === 'routed' ? outcome.rule : null };
        }),
      );
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
