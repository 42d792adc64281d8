import { z } from 'zod';
import { Timestamp } from './common.js';

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
