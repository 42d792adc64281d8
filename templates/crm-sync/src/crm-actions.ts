import { isApiError } from 'convo-kit/client';
import { type Contact, type Message } from 'convo-kit/resources';
import { type CrmContext } from './crm-context.js';
import {
  applyContact,
  applyConversation,
  conversationRow,
  hasContact,
  isOptedOut,
  recordActivity,
} from './crm-records.js';
import { variablesFor, type WindowClosedTemplate, WindowClosedError } from './window-closed-template.js';

/** Thrown instead of sending to a contact who opted out (known to the CRM, or to the service). */
export class OptedOutError extends Error {
  readonly code = 'CONTACT_OPTED_OUT';
  constructor(
    readonly contactId: string,
    readonly source: 'crm' | 'service',
  ) {
    super(`Contact ${contactId} opted out (per the ${source}); nothing was sent`);
    this.name = 'OptedOutError';
  }
}

export interface ContactChanges {
  name?: string;
  email?: string | null;
  lead_stage?: string;
}

/** A CRM-side edit goes to the service first (PATCH /v1/contacts/:id); the CRM stores what the service answered. */
export async function editContact(ctx: CrmContext, id: string, changes: ContactChanges) {
  const contact = await ctx.client.contacts.update({ id, ...changes });
  applyContact(ctx.db, contact);
  recordActivity(ctx.db, {
    key: `crm.edit:${id}:${contact.updated_at}`,
    kind: 'crm.edit',
    contactId: id,
    conversationId: null,
    summary: `edited in the CRM: ${Object.keys(changes).join(', ')}`,
    occurredAt: contact.updated_at,
  });
  return contact;
}

/** Moves a pipeline lead to another stage through the service (PATCH /v1/pipeline/leads/:id/stage). */
export async function moveLeadStage(ctx: CrmContext, leadId: string, stage: string) {
  const lead = await ctx.client.pipeline.moveLead({ id: leadId, stage });
  recordActivity(ctx.db, {
    key: `crm.stage:${lead.id}:${lead.stage_changed_at}`,
    kind: 'crm.stage',
    contactId: lead.contact_id,
    conversationId: lead.conversation_id,
    summary: `lead ${lead.name} moved to ${lead.stage}`,
    occurredAt: lead.stage_changed_at,
  });
  return lead;
}

/** How a reply went out: as the text itself, or (the window had closed) as the configured template. */
export type SentReply =
  | { via: 'text'; message: Message }
  | { via: 'window_closed_template'; message: Message; templateId: string };

const UNSENT_SHOWN_CHARS = 120;

/**
 * Replies on a conversation unless its contact opted out. Checks the CRM first, then the service
 * (the opt-out event may not have arrived yet), and treats the service's CONTACT_OPTED_OUT the same way.
 * When the phone channel's 24-hour window has closed (OUTSIDE_SERVICE_WINDOW), it sends the approved
 * template of `ctx.windowClosedTemplate` instead, from the conversation's own number, and notes on the
 * timeline that the text itself was not sent; with no template configured it throws WindowClosedError.
 */
export async function sendToConversation(ctx: CrmContext, conversationId: string, content: string): Promise<SentReply> {
  const contactId = await contactOfConversation(ctx, conversationId);
  if (isOptedOut(ctx.db, contactId)) throw new OptedOutError(contactId, 'crm');
  const contact = await ctx.client.contacts.get({ id: contactId });
  applyContact(ctx.db, contact);
  if (contact.opted_out) throw new OptedOutError(contactId, 'service');
  try {
    return { via: 'text', message: await ctx.client.conversations.sendMessage({ id: conversationId, content }) };
  } catch (error) {
    if (isApiError(error, 'OUTSIDE_SERVICE_WINDOW')) {
      if (!ctx.windowClosedTemplate) throw new WindowClosedError(conversationId);
      return sendWindowClosedTemplate(ctx, ctx.windowClosedTemplate, conversationId, contact, content);
    }
    throw await optedOutOnService(ctx, contactId, error);
  }
}

/** The template goes to the conversation's number, from the number the customer wrote to (explicit, so never ambiguous). */
async function sendWindowClosedTemplate(
  ctx: CrmContext,
  template: WindowClosedTemplate,
  conversationId: string,
  contact: Contact,
  content: string,
): Promise<SentReply> {
  const conversation = await ctx.client.conversations.get({ id: conversationId });
  const phone = contact.phone ?? conversation.customer.handle;
  let message: Message;
  try {
    message = await ctx.client.templates.send({
      id: template.templateId,
      to: phone.replace(/^\+/, ''),
      integration_id: conversation.integration_id,
      variables: variablesFor(template, contact),
    });
  } catch (error) {
    throw await optedOutOnService(ctx, contact.id, error);
  }
  const unsent = content.length > UNSENT_SHOWN_CHARS ? `${content.slice(0, UNSENT_SHOWN_CHARS - 1)}…` : content;
  recordActivity(ctx.db, {
    key: `crm.window_closed:${message.id}`,
    kind: 'crm.window_closed',
    contactId: contact.id,
    conversationId,
    summary: `24-hour window closed: sent template ${String(message.template_name ?? template.templateId)} instead; not sent: "${unsent}"`,
    occurredAt: message.created_at,
  });
  return { via: 'window_closed_template', message, templateId: template.templateId };
}

/** The service's CONTACT_OPTED_OUT (opted out between our check and the send) becomes OptedOutError; the rest stays. */
async function optedOutOnService(ctx: CrmContext, contactId: string, error: unknown): Promise<unknown> {
  if (!isApiError(error, 'CONTACT_OPTED_OUT')) return error;
  // Store the service's copy of the contact (its `updated_at`, not our clock).
  applyContact(ctx.db, await ctx.client.contacts.get({ id: contactId }));
  return new OptedOutError(contactId, 'service');
}

/** Stores the conversation as the service has it now (and its contact when new to the CRM). @returns the contact id */
async function refreshConversation(ctx: CrmContext, conversationId: string): Promise<string> {
  const current = await ctx.client.conversations.get({ id: conversationId });
  applyConversation(ctx.db, current);
  if (!hasContact(ctx.db, current.contact_id))
    applyContact(ctx.db, await ctx.client.contacts.get({ id: current.contact_id }));
  return current.contact_id;
}

/** The conversation's contact, from the CRM or, when its own event has not arrived yet, from the service. */
export async function contactOfConversation(ctx: CrmContext, conversationId: string): Promise<string> {
  return conversationRow(ctx.db, conversationId)?.contact_id ?? refreshConversation(ctx, conversationId);
}
