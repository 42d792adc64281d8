import { newContact } from '../contacts/new-contact.js';
import type { Contact, Conversation } from '../../../resources/index.js';
import type { EmulatorContext } from '../../route-handler.js';
import type { Account } from '../../state/records.js';
import type { Stores } from '../../state/stores.js';

export interface RecipientConversation {
  contact: Contact;
  conversation: Conversation;
  /** True when the conversation was opened by this send (the caller announces conversation.created, origin `journey`). */
  opened: boolean;
}

/**
 * The contact and the open conversation on `account` that an outbound template goes to, created when
 * the phone has none: a template may open a conversation, free text may not. Runs inside the caller's
 * transaction; a new conversation's service window stays closed until the customer writes.
 */
export function recipientConversation(
  ctx: Pick<EmulatorContext, 'newId'>,
  s: Stores,
  recipient: { phone: string; contact?: Contact },
  account: Account,
  now: string,
): RecipientConversation {
  const identity = { channel: 'phone' as const, handle: recipient.phone, integration_id: account.integration_id };
  let contact = recipient.contact ?? s.contacts.all({ phone: recipient.phone })[0];
  if (!contact) {
    contact = s.contacts.insert(newContact(ctx, { name: null, phone: recipient.phone, identity, now }));
  } else if (!contact.identities.some((i) => i.integration_id === account.integration_id)) {
    contact = s.contacts.put({ ...contact, identities: [...contact.identities, identity], updated_at: now });
  }
  const open = s.conversations
    .all({ contact_id: contact.id, integration_id: account.integration_id })
    .find((c) => c.status !== 'closed');
  if (open) return { contact, conversation: open, opened: false };
  const conversation = s.conversations.insert({
    id: ctx.newId('conv'),
    contact_id: contact.id,
    customer: { name: contact.name, handle: recipient.phone },
    channel: 'phone',
    integration_id: account.integration_id,
    stage: contact.lead_stage,
    status: 'active',
    assignee: null,
    tags: [],
    routing: { team: null, queue: null },
    last_message_preview: null,
    latest_activity_at: now,
    service_window_expires_at: null,
    created_at: now,
  });
  return { contact, conversation, opened: true };
}
