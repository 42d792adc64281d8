import type { z } from 'zod';
import type { TicketUpdate } from '../../../resources/index.js';
import type { Ticket } from '../../../resources/index.js';
import type { EmulatorContext } from '../../route-handler.js';
import { stores } from '../../state/stores.js';
import { applyPatch } from '../shared/changed-fields.js';
import { checkIfMatch } from './ticket-version.js';

const DONE: ReadonlySet<Ticket['status']> = new Set(['resolved', 'closed']);

/** A ticket people have finished with (its move there fired ticket.closed): no longer open work. */
export const ticketDone = (ticket: Pick<Ticket, 'status'>): boolean => DONE.has(ticket.status);

/**
 * PATCH /v1/tickets/:id with optional optimistic concurrency. Every real change is +1 version and
 * ticket.updated (with changed_fields); an assignee change adds ticket.assigned, and reaching
 * resolved or closed adds ticket.closed. A patch that changes nothing keeps the version.
 */
export function updateTicket(
  ctx: EmulatorContext,
  id: string,
  patch: z.output<typeof TicketUpdate>,
  ifMatch: string | undefined,
): Ticket {
  const { tickets } = stores(ctx.db);
  let before: Ticket | undefined;
  let changed: string[] = [];
  const updated = tickets.update(id, (current) => {
    checkIfMatch(current, ifMatch);
    before = current;
    const result = applyPatch(current, {
      status: patch.status,
      priority: patch.priority,
      assignee: patch.assignee,
      resolution:
        patch.resolution === undefined
          ? undefined
          : patch.resolution && { reason: patch.resolution.reason, note: patch.resolution.note ?? null },
    });
    changed = result.changed;
    return changed.length === 0
      ? current
      : { ...result.next, version: current.version + 1, updated_at: ctx.clock.iso() };
  });
  if (changed.length === 0) return updated;
  ctx.events.emit('ticket.updated', { ...updated, changed_fields: changed });
  if (changed.includes('assignee')) ctx.events.emit('ticket.assigned', updated);
  if (changed.includes('status') && DONE.has(updated.status) && !DONE.has(before!.status))
    ctx.events.emit('ticket.closed', updated);
  return updated;
}
