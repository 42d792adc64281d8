import { z } from 'zod';
import { Id } from '../../api/index.js';
import { Ticket, TicketKind, TicketPriority } from '../../resources/index.js';
import { handOff } from '../domain/hand-off.js';
import { control } from '../platform/controls-router.js';

export const HandoffBody = z.strictObject({
  conversation_id: Id,
  /** @default 'handoff' */
  kind: TicketKind.optional(),
  /** Sets the SLA: urgent 1 h, high 4 h, normal 24 h, low 72 h. @default 'normal' */
  priority: TicketPriority.optional(),
});
export type HandoffBody = z.output<typeof HandoffBody>;

/** `POST /_emulator/handoff`: the HTTP side of handOff (domain/hand-off.ts). */
export const handoffControl = control({
  path: '/handoff',
  summary: 'Hand a conversation to people, as the AI or a rule would: a new open ticket, announced as ticket.created',
  body: HandoffBody,
  response: Ticket,
  errors: ['NOT_FOUND'],
  status: 201,
  run: (ctx, { body }) => handOff(ctx, body),
});
