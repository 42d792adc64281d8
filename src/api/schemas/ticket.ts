import { z } from 'zod';
import { Id, text, Timestamp } from './common.js';
import { PageQuery } from './page.js';

export const TicketKind = z.enum(['handoff', 'safety_review', 'routing_rule']);
export const TicketStatus = z.enum(['open', 'pending', 'on_hold', 'resolved', 'closed']);
export const TicketPriority = z.enum(['low', 'normal', 'high', 'urgent']);
export const Resolution = z.object({ reason: z.string(), note: z.string().nullable() });

export const Ticket = z.looseObject({
  id: z.string(),
  kind: TicketKind,
  status: TicketStatus,
  priority: TicketPriority,
  assignee: z.string().nullable(),
  conversation_id: z.string().nullable(),
  contact_id: z.string().nullable(),
  subject: z.string(),
  sla_due_at: Timestamp.nullable(),
  resolution: Resolution.nullable(),
  /** +1 on every change; GET answers it as `ETag: "<version>"`. */
  version: z.number().int().min(1),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Ticket = z.output<typeof Ticket>;

/** Filters of GET /v1/tickets. */
export const TicketListQuery = PageQuery.extend({
  status: TicketStatus.optional(),
  priority: TicketPriority.optional(),
  kind: TicketKind.optional(),
  assignee: text(100).optional(),
  conversation_id: Id.optional(),
});

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
