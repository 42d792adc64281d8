import { type EventData } from 'convo-kit/events';
import { type CrmContext, type DeliveryMeta } from './crm-context.js';
import {
  applyContact,
  applyConversation,
  applyOptOut,
  conversationRow,
  hasContact,
  recordActivity,
} from './crm-records.js';

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

type Handler<N extends CrmEvent> = (ctx: CrmContext, data: EventData<N>, meta: DeliveryMeta) => Promise<void>;

/**
 * Delivery is at least once and order is not guaranteed, so every handler is written to be run
 * twice or late: contacts compare `updated_at`, conversations are re-read from the service (the
 * truth now, whatever order events came in), and timeline rows use a natural key of the fact.
 */
export const crmSyncHandlers: { [N in CrmEvent]: Handler<N> } = {
  'contact.updated': async ({ db }, contact, meta) => {
    applyContact(db, contact);
    recordActivity(db, {
      key: `contact.updated:${contact.id}:${contact.updated_at}`,
      kind: 'contact.updated',
      contactId: contact.id,
      conversationId: null,
      summary: `${contact.name ?? contact.id} updated (${contact.changed_fields.join(', ') || 'no fields'}) by ${contact.source}`,
      occurredAt: contact.updated_at,
      ...meta,
    });
  },
  'contact.opted_out': async ({ db }, contact, meta) => optInOrOut(db, contact, 'contact.opted_out', meta),
  'contact.opted_in': async ({ db }, contact, meta) => optInOrOut(db, contact, 'contact.opted_in', meta),
  'conversation.created': async (ctx, data, meta) =>
    conversationEvent(
      ctx,
      'conversation.created',
      data.id,
      `opened on ${data.channel} (${data.origin})`,
      data.created_at,
      meta,
    ),
  'conversation.closed': async (ctx, data, meta) =>
    conversationEvent(
      ctx,
      'conversation.closed',
      data.id,
      `closed by ${data.closed_by}`,
      data.latest_activity_at,
      meta,
    ),
  'conversation.assigned': async (ctx, data, meta) =>
    conversationEvent(
      ctx,
      'conversation.assigned',
      data.id,
      `assigned to ${data.assignee ?? 'nobody'} by ${data.assigned_by}`,
      data.latest_activity_at,
      meta,
    ),
  'message.received': async (ctx, message, meta) =>
    messageEvent(
      ctx,
      'message.received',
      message.id,
      message.conversation_id,
      `${message.channel} in: ${message.content}`,
      message.created_at,
      meta,
    ),
  'message.sent': async (ctx, message, meta) =>
    messageEvent(
      ctx,
      'message.sent',
      message.id,
      message.conversation_id,
      `${message.channel} out (${message.source}): ${message.content}`,
      message.created_at,
      meta,
    ),
  'message.delivery_failed': async (ctx, failure, meta) =>
    messageEvent(
      ctx,
      'message.delivery_failed',
      failure.message_id,
      failure.conversation_id,
      `delivery failed: ${failure.error_code} ${failure.error_reason}`,
      new Date().toISOString(),
      meta,
    ),
};

async function optInOrOut(
  db: CrmContext['db'],
  contact: EventData<'contact.opted_out'>,
  kind: 'contact.opted_out' | 'contact.opted_in',
  meta: DeliveryMeta,
): Promise<void> {
  applyOptOut(db, contact.id, contact.opted_out, contact.updated_at, contact.keyword);
  applyContact(db, contact);
  recordActivity(db, {
    key: `${kind}:${contact.id}:${contact.updated_at}`,
    kind,
    contactId: contact.id,
    conversationId: null,
    summary: `${contact.name ?? contact.id} ${kind === 'contact.opted_out' ? 'opted out' : 'opted in'}${contact.keyword ? ` ("${contact.keyword}")` : ''}`,
    occurredAt: contact.updated_at,
    ...meta,
  });
}

/** Re-reads the conversation (so a late `created` never reopens a closed one) and notes the event once. */
async function conversationEvent(
  ctx: CrmContext,
  kind: CrmEvent,
  id: string,
  summary: string,
  at: string,
  meta: DeliveryMeta,
): Promise<void> {
  const contactId = await refreshConversation(ctx, id);
  recordActivity(ctx.db, {
    key: `${kind}:${id}:${at}`,
    kind,
    contactId,
    conversationId: id,
    summary,
    occurredAt: at,
    ...meta,
  });
}

/** A message changes its conversation (preview, latest activity): re-read it too, then note the message once. */
async function messageEvent(
  ctx: CrmContext,
  kind: CrmEvent,
  messageId: string,
  conversationId: string,
  summary: string,
  at: string,
  meta: DeliveryMeta,
): Promise<void> {
  const contactId = await refreshConversation(ctx, conversationId);
  recordActivity(ctx.db, {
    key: `${kind}:${messageId}`,
    kind,
    contactId,
    conversationId,
    summary,
    occurredAt: at,
    ...meta,
  });
}

/** Stores the conversation as the service has it now (and its contact when new to the CRM). @returns the contact id */
async function refreshConversation(ctx: CrmContext, conversationId: string): Promise<string> {
  const current = await ctx.client.conversations.get({ id: conversationId });
  applyConversation(ctx.db, current);
  await ensureContact(ctx, current.contact_id);
  return current.contact_id;
}

/** Conversation events name a contact the CRM may not have yet (a new customer): read it from the service. */
async function ensureContact(ctx: CrmContext, contactId: string): Promise<void> {
  if (hasContact(ctx.db, contactId)) return;
  applyContact(ctx.db, await ctx.client.contacts.get({ id: contactId }));
}

/** The conversation's contact, from the CRM or, when its own event has not arrived yet, from the service. */
export async function contactOfConversation(ctx: CrmContext, conversationId: string): Promise<string> {
  return conversationRow(ctx.db, conversationId)?.contact_id ?? refreshConversation(ctx, conversationId);
}
