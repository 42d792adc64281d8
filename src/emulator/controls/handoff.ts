import { z } from 'zod';
import { Id } from '../../api/index.js';
import { Ticket, TicketKind, TicketPriority } from '../../resources/index.js';
import { openTicket } from '../domain/open-ticket.js';
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
