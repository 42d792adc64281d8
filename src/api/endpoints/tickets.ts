import { Ticket, TicketListQuery, TicketUpdate } from '../schemas/ticket.js';
import { endpoint } from '../endpoint.js';
import { page } from '../schemas/page.js';
import { IdParams } from '../schemas/common.js';
import { IfMatchHeaders } from '../schemas/if-match.js';

export const tickets = {
  list: endpoint({
    method: 'GET',
    path: '/v1/tickets',
    summary: 'List tickets',
    scope: 'tickets:read',
    query: TicketListQuery,
    response: page(Ticket),
    paginated: true,
  }),
  get: endpoint({
    method: 'GET',
    path: '/v1/tickets/:id',
    summary: 'One ticket; the response carries `ETag: "<version>"`',
    scope: 'tickets:read',
    params: IdParams,
    response: Ticket,
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/v1/tickets/:id',
    summary: 'Update status, priority, assignee or resolution; optional optimistic concurrency with If-Match',
    scope: 'tickets:write',
    params: IdParams,
    headers: IfMatchHeaders,
    body: TicketUpdate,
    response: Ticket,
  }),
};
