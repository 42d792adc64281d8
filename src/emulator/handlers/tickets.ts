import type { endpoints } from '../../api/index.js';
import { reply, type RouteHandlers } from '../route-handler.js';
import { ticketEtag } from '../domain/tickets/ticket-version.js';
import { updateTicket } from '../domain/tickets/update-ticket.js';
import { stores } from '../state/stores.js';

export const ticketsHandlers = {
  list: ({ query }, ctx) =>
    stores(ctx.db).tickets.listJson({
      limit: query.limit,
      cursor: query.cursor,
      where: {
        status: query.status,
        priority: query.priority,
        kind: query.kind,
        assignee: query.assignee,
        conversation_id: query.conversation_id,
      },
    }),
  get: ({ params }, ctx) => {
    const ticket = stores(ctx.db).tickets.require(params.id, 'ticket');
    return reply<typeof endpoints.tickets.get>(200, ticket, { ETag: ticketEtag(ticket) });
  },
  update: ({ params, body, headers }, ctx) => {
    const ticket = updateTicket(ctx, params.id, body, headers['if-match']);
    return reply<typeof endpoints.tickets.update>(200, ticket, { ETag: ticketEtag(ticket) });
  },
} satisfies RouteHandlers<typeof endpoints.tickets>;
