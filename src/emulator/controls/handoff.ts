import { z } from 'zod';
import { Id } from '../../api/index.js';
import { Ticket, TicketKind, TicketPriority } from '../../resources/index.js';
import { slaDueAt } from '../domain/sla.js';
import type { EmulatorContext } from '../route-handler.js';
import { control } from '../platform/controls-router.js';
import { stores } from '../state/stores.js';

export const HandoffBody = z.strictObject({
  conversation_id: Id,
  /** @default 'handoff' */
  kind: TicketKind.optional(),
  /** Sets the SLA: urgent 1 h, high 4 h, normal 24 h, low 72 h. @default 'normal' */
  priority: TicketPriority.optional(),
});
export type HandoffBody = z.output<typeof HandoffBody>;

/** The AI or a rule hands a conversation to people (`POST /_emulator/handoff`): a new open ticket, announced as ticket.created. */
export function handOff(ctx: EmulatorContext, body: HandoffBody): Ticket {
  const s = stores(ctx.db);
  const conversation = s.conversations.require(body.conversation_id, 'conversation');
  const kind = body.kind ?? 'handoff';
  const priority = body.priority ?? 'normal';
  const now = ctx.clock.now();
  const who = conversation.customer.name ?? conversation.customer.handle;
  const ticket = s.tickets.insert({
    id: ctx.newId('tkt'),
    kind,
    status: 'open',
    priority,
    assignee: null,
    conversation_id: conversation.id,
    contact_id: conversation.contact_id,
    subject:
      kind === 'handoff' ? `Handoff: ${who}` : kind === 'safety_review' ? `Safety review: ${who}` : `Routed: ${who}`,
    sla_due_at: slaDueAt(priority, now),
    resolution: null,
    version: 1,
    created_at: new Date(now).toISOString(),
    updated_at: new Date(now).toISOString(),
  });
  ctx.events.emit('ticket.created', ticket);
  return ticket;
}

export const handoffControl = control({
  path: '/handoff',
  summary: 'Hand a conversation to people, as the AI or a rule would: a new open ticket, announced as ticket.created',
  body: HandoffBody,
  response: Ticket,
  errors: ['NOT_FOUND'],
  status: 201,
  run: (ctx, { body }) => handOff(ctx, body),
});
