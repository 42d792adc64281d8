import type { Contact, Message } from '../../../resources/index.js';
import { ApiFailure } from '../../api-failure.js';
import type { EmulatorContext } from '../../route-handler.js';
import type { TemplateRecord } from '../../state/records.js';
import { stores } from '../../state/stores.js';
import { trackDelivery } from '../messages/delivery-progress.js';
import { requireOutboundQuota } from '../usage/monthly-quota.js';
import { providerOutcome } from '../shared/provider-outcome.js';
import { queuedMessage } from '../messages/queued-message.js';
import { recipientConversation } from '../conversations/recipient-conversation.js';
import { preview } from '../messages/send-message.js';
import { resolveTemplateSender } from './template-sender.js';
import { recordThrottledSend } from './template-throttle.js';
import { fillTemplate } from './template-variables.js';

export interface TemplateSendInput {
  /** The template as stored now; undefined when it was deleted (a journey or campaign that still maps it). */
  template: TemplateRecord | undefined;
  templateId: string;
  /** E.164, with the plus. */
  phone: string;
  /** The contact, when the caller already has it (a campaign audience). */
  contact?: Contact;
  integrationId?: string;
  variables: Readonly<Record<string, string>>;
  /** Where the variables came from in the caller's request, for error paths (`variables`, `metadata`). */
  variablesField?: string;
  source: 'api' | 'journey';
  /** Fields kept on the message to tie it to what sent it (`campaign_id`, `journey_action_id`). */
  origin?: Readonly<Record<string, string>>;
}

/** Stops a send of a template that is not `approved` (or no longer exists): nothing sent, not charged. */
export function requireApproved(template: TemplateRecord | undefined, templateId: string): TemplateRecord {
  if (template?.status === 'approved') return template;
  throw new ApiFailure(
    'TEMPLATE_NOT_APPROVED',
    template
      ? `Template ${template.name} (${template.id}) is ${template.status}, not approved; it was not sent and not charged`
      : `Template ${templateId} no longer exists; it was not sent and not charged`,
    { details: [{ template_id: templateId, status: template?.status ?? null }] },
  );
}

function optedOut(contactId: string | null): ApiFailure {
  return new ApiFailure(
    'CONTACT_OPTED_OUT',
    `${contactId ? `Contact ${contactId}` : 'The recipient'} opted out of messages; the send was stopped before sending and not charged`,
  );
}

/**
 * One template send: approval, variables, sender resolution, opt-out, the plan's monthly message quota and
 * the provider sandbox, then
 * the message (`queued`, advancing off the request). Works outside the 24-hour window; opens a
 * conversation (conversation.created, origin `journey`) when the phone has none on the sender.
 * Every refusal throws before anything is stored, sent, charged or announced.
 */
export function sendTemplate(ctx: EmulatorContext, input: TemplateSendInput): Message {
  const s = stores(ctx.db);
  const template = requireApproved(input.template, input.templateId);
  const content = fillTemplate(template.body, input.variables, input.variablesField, `template ${template.name}`);
  const account = resolveTemplateSender(s, template, input.integrationId);
  const known = input.contact ?? s.contacts.all({ phone: input.phone })[0];
  if (known?.opted_out) throw optedOut(known.id);
  requireOutboundQuota(ctx, 'messages');
  const outcome = providerOutcome(input.phone);
  // A known contact's record decides (it may have opted in again with START); the number, a new recipient.
  if (!known && outcome.kind === 'opted_out') throw optedOut(null);
  if (outcome.kind === 'rejected') {
    throw new ApiFailure(
      'SEND_FAILED',
      `The provider rejected the send (error ${outcome.errorCode}): ${outcome.reason}`,
      {
        details: [{ provider_error_code: outcome.errorCode }],
      },
    );
  }
  const nowMs = ctx.clock.now();
  const now = new Date(nowMs).toISOString();
  const { message, opened, conversation } = ctx.db.transaction(() => {
    const target = recipientConversation(ctx, s, { phone: input.phone, contact: known }, account, now);
    const queued = queuedMessage(
      {
        id: ctx.newId('msg'),
        conversation_id: target.conversation.id,
        integration_id: account.integration_id,
        channel: 'phone',
        created_at: now,
      },
      { content },
    );
    const stored = s.messages.insert({
      ...queued,
      source: input.source,
      template_id: template.id,
      template_name: template.name,
      ...input.origin,
    });
    const conversation = s.conversations.put({
      ...target.conversation,
      last_message_preview: preview(content),
      latest_activity_at: now,
    });
    trackDelivery(ctx, stored.id, outcome.kind === 'throttled' ? 'throttled' : 'delivered');
    return { message: stored, opened: target.opened, conversation };
  })();
  if (opened) ctx.events.emit('conversation.created', { ...conversation, origin: 'journey' });
  if (outcome.kind === 'throttled') recordThrottledSend(ctx, template.id);
  return message;
}
