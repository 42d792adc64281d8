import { type EventData } from 'convo-kit/events';
import { isApiError } from 'convo-kit/client';
import { OptedOutError, sendToConversation } from './crm-actions.js';
import { type CrmContext, type KitClient, type SyncEffects } from './crm-context.js';
import {
  applyContact,
  applyConversation,
  applyOptOut,
  conversationRow,
  hasContact,
  recordActivity,
  type ActivityInput,
} from './crm-records.js';
import { WindowClosedError } from './window-closed-template.js';

/** The events the CRM keeps itself in sync with. */
export const CRM_EVENTS = [
  'contact.updated',
  'contact.opted_out',
  'contact.opted_in',
  'conversation.created',
  'conversation.closed',
  'conversation.assigned',
  'message.received',
  'message.sent',
  'message.delivery_failed',
] as const;
export type CrmEvent = (typeof CRM_EVENTS)[number];

type Handler<N extends CrmEvent> = (ctx: CrmContext, data: EventData<N>, event: SyncEffects) => Promise<void>;

/**
 * Each handler reads the service through the event's client and writes the CRM in a step of the event, so
 * a retry, a restart after a crash or a replay gets the first run's reads back and writes nothing twice
 * (README of convo-kit, "Effects, exactly once"). Events still come late and out of order: contacts compare
 * `updated_at`, conversations are re-read from the service (the truth now), and a timeline row's key is the
 * fact it records, which also makes a step that died halfway safe to run again.
 */
export const crmSyncHandlers: { [N in CrmEvent]: Handler<N> } = {
  'contact.updated': async ({ db }, contact, event) =>
    event.step('crm', () => {
      applyContact(db, contact);
      recordActivity(db, {
        key: `contact.updated:${contact.id}:${contact.updated_at}`,
        kind: 'contact.updated',
        contactId: contact.id,
        conversationId: null,
        summary: `${contact.name ?? contact.id} updated (${contact.changed_fields.join(', ') || 'no fields'}) by ${contact.source}`,
        occurredAt: contact.updated_at,
        deliveryId: event.deliveryId,
      });
    }),
  'contact.opted_out': async (ctx, contact, event) => optInOrOut(ctx, contact, 'contact.opted_out', event),
  'contact.opted_in': async (ctx, contact, event) => optInOrOut(ctx, contact, 'contact.opted_in', event),
  'conversation.created': async (ctx, data, event) => {
    await conversationEvent(ctx, event, {
      key: `conversation.created:${data.id}:${data.created_at}`,
      kind: 'conversation.created',
      conversationId: data.id,
      summary: `opened on ${data.channel} (${data.origin})`,
      occurredAt: data.created_at,
    });
    // A customer who writes in first hears back at once; the send is a step of this event (README, Auto-reply).
    if (ctx.autoReply && data.origin === 'inbound') await autoReply(ctx, data.id, ctx.autoReply, event);
  },
  'conversation.closed': async (ctx, data, event) =>
    conversationEvent(ctx, event, {
      key: `conversation.closed:${data.id}:${data.latest_activity_at}`,
      kind: 'conversation.closed',
      conversationId: data.id,
      summary: `closed by ${data.closed_by}`,
      occurredAt: data.latest_activity_at,
    }),
  'conversation.assigned': async (ctx, data, event) =>
    conversationEvent(ctx, event, {
      key: `conversation.assigned:${data.id}:${data.latest_activity_at}`,
      kind: 'conversation.assigned',
      conversationId: data.id,
      summary: `assigned to ${data.assignee ?? 'nobody'} by ${data.assigned_by}`,
      occurredAt: data.latest_activity_at,
    }),
  'message.received': async (ctx, message, event) =>
    conversationEvent(ctx, event, {
      key: `message.received:${message.id}`,
      kind: 'message.received',
      conversationId: message.conversation_id,
      summary: `${message.channel} in: ${message.content}`,
      occurredAt: message.created_at,
    }),
  'message.sent': async (ctx, message, event) =>
    conversationEvent(ctx, event, {
      key: `message.sent:${message.id}`,
      kind: 'message.sent',
      conversationId: message.conversation_id,
      summary: `${message.channel} out (${message.source}): ${message.content}`,
      occurredAt: message.created_at,
    }),
  'message.delivery_failed': async (ctx, failure, event) =>
    conversationEvent(ctx, event, {
      key: `message.delivery_failed:${failure.message_id}`,
      kind: 'message.delivery_failed',
      conversationId: failure.conversation_id,
      summary: `delivery failed: ${failure.error_code} ${failure.error_reason}`,
      // The event carries no time of its own; the first run's clock is journaled with the step's result.
      occurredAt: await event.step('failed at', () => new Date().toISOString()),
    }),
};

async function optInOrOut(
  { db }: CrmContext,
  contact: EventData<'contact.opted_out'>,
  kind: 'contact.opted_out' | 'contact.opted_in',
  event: SyncEffects,
): Promise<void> {
  await event.step('crm', () => {
    applyOptOut(db, contact.id, contact.opted_out, contact.updated_at, contact.keyword);
    applyContact(db, contact);
    recordActivity(db, {
      key: `${kind}:${contact.id}:${contact.updated_at}`,
      kind,
      contactId: contact.id,
      conversationId: null,
      summary: `${contact.name ?? contact.id} ${kind === 'contact.opted_out' ? 'opted out' : 'opted in'}${contact.keyword ? ` ("${contact.keyword}")` : ''}`,
      occurredAt: contact.updated_at,
      deliveryId: event.deliveryId,
    });
  });
}

/**
 * Re-reads the conversation (so a late `created` never reopens a closed one) and its contact when new to
 * the CRM, then, in one step, stores them and notes the event on the timeline.
 */
async function conversationEvent(
  ctx: CrmContext,
  event: SyncEffects,
  entry: Omit<ActivityInput, 'contactId' | 'deliveryId'>,
): Promise<void> {
  const conversation = await event.client.conversations.get({ id: entry.conversationId! });
  const contact = hasContact(ctx.db, conversation.contact_id)
    ? null
    : await event.client.contacts.get({ id: conversation.contact_id });
  await event.step('crm', () =>
    ctx.db.transaction(() => {
      applyConversation(ctx.db, conversation);
      if (contact) applyContact(ctx.db, contact);
      recordActivity(ctx.db, { ...entry, contactId: conversation.contact_id, deliveryId: event.deliveryId });
    })(),
  );
}

/**
 * The auto-reply: sent through the event's client, so a retry after a crash that came after the send is
 * answered from the journal (or, if the crash beat the journal, by the service as a replay of the same
 * Idempotency-Key) and the customer hears it once; the window-closed fallback goes the same way. A send that
 * can never go (the contact opted out, the window closed with no template, the provider refused it) is noted
 * on the timeline instead of failing the event: retrying would not change the answer.
 */
async function autoReply(ctx: CrmContext, conversationId: string, text: string, event: SyncEffects): Promise<void> {
  const eventCtx: CrmContext = { ...ctx, client: event.client as KitClient };
  const outcome = await sendToConversation(eventCtx, conversationId, text).then(
    (sent) =>
      sent.via === 'text'
        ? { id: sent.message.id, at: sent.message.created_at, summary: 'auto-reply sent' }
        : {
            id: sent.message.id,
            at: sent.message.created_at,
            summary: 'auto-reply sent as the window-closed template',
          },
    (error: unknown) => {
      const reason = unsendableReason(error);
      if (reason === null) throw error;
      return { id: conversationId, at: null, summary: `auto-reply not sent: ${reason}` };
    },
  );
  await event.step('auto-reply noted', () =>
    recordActivity(ctx.db, {
      key: `crm.auto_reply:${outcome.id}`,
      kind: 'crm.auto_reply',
      contactId: conversationRow(ctx.db, conversationId)?.contact_id ?? null,
      conversationId,
      summary: outcome.summary,
      occurredAt: outcome.at ?? new Date().toISOString(),
      deliveryId: event.deliveryId,
    }),
  );
}

/** Why a send can never go, for the refusals a retry would meet again; null for anything worth retrying. */
function unsendableReason(error: unknown): string | null {
  if (error instanceof OptedOutError) return `the contact opted out (per the ${error.source})`;
  if (error instanceof WindowClosedError)
    return 'the 24-hour window has closed and no WINDOW_CLOSED_TEMPLATE_ID is set';
  if (isApiError(error, 'SEND_FAILED')) return `the provider refused it (${error.message})`;
  return null;
}
