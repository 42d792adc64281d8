import type { Conversation, Message, MessageInput } from '../../../resources/index.js';
import { ApiFailure } from '../../api-failure.js';
import type { EmulatorContext } from '../../route-handler.js';
import { stores } from '../../state/stores.js';
import { trackDelivery } from './delivery-progress.js';
import { requireOutboundQuota } from '../usage/monthly-quota.js';
import { providerOutcome } from '../shared/provider-outcome.js';
import { queuedMessage } from './queued-message.js';
import { requireSameAccount } from '../conversations/resolve-conversation.js';
import { windowOpen } from '../conversations/service-window.js';

/** How much of a message a conversation shows as its preview. */
export const PREVIEW_CHARS = 120;

export function preview(content: string): string {
  return content.length > PREVIEW_CHARS ? `${content.slice(0, PREVIEW_CHARS - 1)}…` : content;
}

/**
 * A live free-text send on a conversation: the account, opt-out and service-window rules, the plan's monthly
 * message quota (and AI-reply quota for source `ai`), then the provider sandbox. Returns the stored message (`queued`; it advances off the request). A refusal
 * throws before anything is stored, sent, charged or announced. `source` is what `message.sent` reports
 * (`automation` for an automation's send, `ai` for an AI reply); `origin` is stored on the message and travels
 * in its events (an automation's `automation_id`, as a journey step's `journey_action_id`).
 */
export function sendMessage(
  ctx: EmulatorContext,
  conversation: Conversation,
  input: MessageInput,
  source: NonNullable<Message['source']> = 'api',
  origin: Readonly<Record<string, string>> = {},
): Message {
  const s = stores(ctx.db);
  requireSameAccount(conversation, input.integration_id);
  const contact = s.contacts.require(conversation.contact_id, 'contact');
  const refuseOptedOut = (): never => {
    throw new ApiFailure(
      'CONTACT_OPTED_OUT',
      `Contact ${contact.id} opted out of messages; the send was stopped before sending and not charged`,
    );
  };
  if (contact.opted_out) refuseOptedOut();
  const now = ctx.clock.now();
  if (!windowOpen(conversation, now)) {
    throw new ApiFailure(
      'OUTSIDE_SERVICE_WINDOW',
      `The 24-hour customer-service window of conversation ${conversation.id} is closed; send an approved template instead`,
      { details: [{ service_window_expires_at: conversation.service_window_expires_at }] },
    );
  }
  requireOutboundQuota(ctx, 'messages');
  if (source === 'ai') requireOutboundQuota(ctx, 'ai_replies');
  const recipientPhone = conversation.channel === 'phone' ? (contact.phone ?? conversation.customer.handle) : null;
  // The contact's record (above) decides opt-out: a 0003 number's contact starts opted out and may opt in.
  const outcome = providerOutcome(recipientPhone);
  if (outcome.kind === 'rejected') {
    throw new ApiFailure(
      'SEND_FAILED',
      `The provider rejected the send (error ${outcome.errorCode}): ${outcome.reason}`,
      {
        details: [{ provider_error_code: outcome.errorCode }],
      },
    );
  }
  const message: Message = {
    ...queuedMessage(
      {
        id: ctx.newId('msg'),
        conversation_id: conversation.id,
        integration_id: conversation.integration_id,
        channel: conversation.channel,
        created_at: new Date(now).toISOString(),
      },
      input,
      source,
    ),
    ...origin,
  };
  ctx.db.transaction(() => {
    s.messages.insert(message);
    s.conversations.put({
      ...conversation,
      last_message_preview: preview(message.content),
      latest_activity_at: message.created_at,
    });
    trackDelivery(ctx, message.id, outcome.kind === 'throttled' ? 'throttled' : 'delivered');
  })();
  return message;
}
