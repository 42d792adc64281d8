import { z } from 'zod';
import { Ticket, TicketKind, TicketPriority, TicketStatus } from '../../resources/ticket.js';
import { endpoint, page, PageQuery } from '../endpoint.js';
import { Id, IdParams, text } from '../schemas/common.js';

export const TicketUpdate = z.strictObject({
  status: TicketStatus.optional(),
  priority: TicketPriority.optional(),
  assignee: text(100).nullable().optional(),
  /** Resolution metadata; null clears it. */
  resolution: z
    .strictObject({ reason: text(200), note: z.string().max(5_000).nullable().optional() })
    .nullable()
    .optional(),
});

/** `If-Match: "<version>"` (the ETag of GET): a stale version gets 409 VERSION_CONFLICT; absent, the last write wins. */
export const IfMatch = z.string().regex(/^(W\/)?"\d+"$/, 'expected an ETag such as "3"');

export const tickets = {
  list: endpoint({
    method: 'GET',
    path: '/v1/tickets',
    summary: 'List tickets',
    scope: 'tickets:read',
    query: PageQuery.extend({
      status: TicketStatus.optional(),
      priority: TicketPriority.optional(),
      kind: TicketKind.optional(),
      assignee: text(100).optional(),
      conversation_id: Id.optional(),
    }),
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
    headers: z.object({ 'if-match': IfMatch.optional() }),
    body: TicketUpdate,
    response: Ticket,
  }),
};
