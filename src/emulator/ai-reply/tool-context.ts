import type { VerifiedToolResult } from '../../api/schemas/custom-reply.js';
import type { Conversation } from '../../resources/index.js';
import { ticketDone } from '../domain/index.js';
import type { Stores } from '../state/stores.js';

/** Open tickets listed in the tool context, newest first: enough to know what is pending. */
const TICKETS_SHOWN = 5;

/**
 * What the emulator can vouch for about a conversation (docs/custom-reply.md): the contact, the
 * conversation, and its open tickets. `actions` lists what the service really did: an open handoff
 * ticket lets a reply say the conversation was passed to the team, and nothing else is ever done by AI.
 */
export function verifiedToolContext(s: Stores, conversation: Conversation): VerifiedToolResult[] {
  const contact = s.contacts.get(conversation.contact_id);
  const open = s.tickets
    .list({ where: { conversation_id: conversation.id }, limit: 50 })
    .data.filter((t) => !ticketDone(t))
    .slice(0, TICKETS_SHOWN);
  return [
    {
      tool: 'contact',
      data: contact
        ? { id: contact.id, name: contact.name, lead_stage: contact.lead_stage, opted_out: contact.opted_out }
        : {},
      actions: [],
    },
    {
      tool: 'conversation',
      data: {
        id: conversation.id,
        channel: conversation.channel,
        status: conversation.status,
        tags: conversation.tags,
        assignee: conversation.assignee,
      },
      actions: [],
    },
    {
      tool: 'tickets',
      data: { open: open.map((t) => ({ id: t.id, kind: t.kind, status: t.status, priority: t.priority })) },
      actions: open.some((t) => t.kind === 'handoff') ? ['handoff'] : [],
    },
  ];
}
