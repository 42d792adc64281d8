import { Channel, type Conversation } from '../../../resources/index.js';
import { ApiFailure } from '../../api-failure.js';
import type { Stores } from '../../state/stores.js';

/** Where POST /v1/messages sends: a conversation by id, or a contact's existing chat on a channel. */
export interface SendTarget {
  conversation_id?: string | undefined;
  contact_id?: string | undefined;
  channel?: string | undefined;
  integration_id?: string | undefined;
}

/** A channel value as the caller wrote it, refused with 422 INVALID_PLATFORM unless it is one of the three. */
export function requireChannel(value: string, field = 'channel'): Channel {
  const parsed = Channel.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new ApiFailure(
    'INVALID_PLATFORM',
    `${field} must be one of ${Channel.options.join(', ')}; got ${JSON.stringify(value)}`,
    {
      details: [{ path: field, message: `unsupported channel ${JSON.stringify(value)}` }],
    },
  );
}

/** The sending account must be the conversation's own (spec: 409 ACCOUNT_MISMATCH otherwise). */
export function requireSameAccount(conversation: Conversation, integrationId: string | undefined): void {
  if (integrationId === undefined || integrationId === conversation.integration_id) return;
  throw new ApiFailure(
    'ACCOUNT_MISMATCH',
    `integration_id ${integrationId} is not the account of conversation ${conversation.id} (${conversation.integration_id}); omit it or send from that account`,
    { details: [{ integration_id: integrationId, conversation_integration_id: conversation.integration_id }] },
  );
}

export function resolveConversation(s: Stores, target: SendTarget): Conversation {
  if (target.conversation_id !== undefined) {
    const conversation = s.conversations.require(target.conversation_id, 'conversation');
    requireSameAccount(conversation, target.integration_id);
    return conversation;
  }
  if (target.contact_id === undefined || target.channel === undefined) {
    throw new ApiFailure('VALIDATION_FAILED', 'Name the conversation: conversation_id, or contact_id with channel', {
      details: [{ path: 'conversation_id', message: 'required unless contact_id and channel are given' }],
    });
  }
  const channel = requireChannel(target.channel);
  const contact = s.contacts.require(target.contact_id, 'contact');
  // Newest activity first, so "the" chat on an account is the one the customer used last.
  const chats = s.conversations
    .all({ contact_id: contact.id, channel })
    .sort((a, b) => b.latest_activity_at.localeCompare(a.latest_activity_at));
  if (chats.length === 0) {
    throw new ApiFailure(
      'NOT_FOUND',
      `Contact ${contact.id} has no conversation on ${channel}; a send needs an existing conversation`,
    );
  }
  const accounts = [...new Set(chats.map((c) => c.integration_id))];
  if (target.integration_id !== undefined) {
    const chat = chats.find((c) => c.integration_id === target.integration_id);
    if (chat) return chat;
    throw new ApiFailure(
      'ACCOUNT_MISMATCH',
      `Contact ${contact.id} has no ${channel} conversation on account ${target.integration_id}`,
      {
        details: accounts.map((integration_id) => ({ integration_id })),
      },
    );
  }
  if (accounts.length > 1) {
    throw new ApiFailure(
      'ACCOUNT_REQUIRED',
      `Contact ${contact.id} chats on ${accounts.length} ${channel} accounts; pass integration_id to choose one`,
      {
        details: accounts.map((integration_id) => ({ integration_id })),
      },
    );
  }
  return chats[0]!;
}
