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

/** The AI or a rule hands a conversation to people (`POST /_emulator/handoff`): a new open ticket, announced as ticket.created. */
export function handOff(ctx: EmulatorContext, body: HandoffBody): Ticket {
  const conversation = stores(ctx.db).conversations.require(body.conversation_id, 'conversation');
  const kind = body.kind ?? 'handoff';
  const who = conversation.customer.name ?? conversation.customer.handle;
  return openTicket(ctx, {
    kind,
    priority: body.priority ?? 'normal',
    conversation_id: conversation.id,
    contact_id: conversation.contact_id,
    subject:
      kind === 'handoff' ? `Handoff: ${who}` : kind === 'safety_review' ? `Safety review: ${who}` : `Routed: ${who}`,
  });
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
