import { z } from 'zod';
import { Id } from '../../../resources/index.js';
import { TicketKind, TicketPriority, type Ticket } from '../../../resources/index.js';
import type { EmulatorContext } from '../../route-handler.js';
import { stores } from '../../state/stores.js';
import { openTicket } from './open-ticket.js';

/** Which conversation goes to people, and why (the ticket's kind) and how soon (its priority, hence its SLA). */
export const HandOffRequest = z.strictObject({
  conversation_id: Id,
  /** @default 'handoff' */
  kind: TicketKind.optional(),
  /** Sets the SLA: urgent 1 h, high 4 h, normal 24 h, low 72 h. @default 'normal' */
  priority: TicketPriority.optional(),
});
export type HandOffRequest = z.output<typeof HandOffRequest>;

/** The AI or a rule hands a conversation to people: a new open ticket, announced as ticket.created. */
export function handOff(ctx: EmulatorContext, request: HandOffRequest): Ticket {
  const conversation = stores(ctx.db).conversations.require(request.conversation_id, 'conversation');
  const kind = request.kind ?? 'handoff';
  const who = conversation.customer.name ?? conversation.customer.handle;
  return openTicket(ctx, {
    kind,
    priority: request.priority ?? 'normal',
    conversation_id: conversation.id,
    contact_id: conversation.contact_id,
    subject:
      kind === 'handoff' ? `Handoff: ${who}` : kind === 'safety_review' ? `Safety review: ${who}` : `Routed: ${who}`,
  });
}
