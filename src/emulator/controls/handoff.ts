import { Ticket } from '../../resources/index.js';
import { handOff, HandOffRequest } from '../domain/tickets/hand-off.js';
import { control } from '../platform/controls-router.js';

/** `POST /_emulator/handoff`: the HTTP side of handOff (domain/tickets/hand-off.ts), its body the domain's request. */
export const handoffControl = control({
  path: '/handoff',
  summary: 'Hand a conversation to people, as the AI or a rule would: a new open ticket, announced as ticket.created',
  body: HandOffRequest,
  response: Ticket,
  errors: ['NOT_FOUND'],
  status: 201,
  run: (ctx, { body }) => handOff(ctx, body),
});
