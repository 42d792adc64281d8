import type { Ticket } from '../../../resources/index.js';
import type { EmulatorContext } from '../../route-handler.js';
import { stores } from '../../state/stores.js';
import { slaDueAt } from './sla.js';

/** A new open ticket (its SLA from its priority), announced as ticket.created. */
export function openTicket(
  ctx: EmulatorContext,
  fields: Pick<Ticket, 'kind' | 'priority' | 'conversation_id' | 'contact_id' | 'subject'>,
): Ticket {
  const now = ctx.clock.now();
  const at = new Date(now).toISOString();
  const ticket = stores(ctx.db).tickets.insert({
    id: ctx.newId('tkt'),
    status: 'open',
    assignee: null,
    ...fields,
    sla_due_at: slaDueAt(fields.priority, now),
    resolution: null,
    version: 1,
    created_at: at,
    updated_at: at,
  });
  ctx.events.emit('ticket.created', ticket);
  return ticket;
}
