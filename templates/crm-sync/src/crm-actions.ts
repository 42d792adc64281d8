import { isApiError } from 'convo-kit/client';
import { type CrmContext } from './crm-context.js';
import { applyContact, isOptedOut, recordActivity } from './crm-records.js';
import { contactOfConversation } from './sync-handlers.js';

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

/**
 * Replies on a conversation unless its contact opted out. Checks the CRM first, then the service
 * (the opt-out event may not have arrived yet), and treats the service's CONTACT_OPTED_OUT the same way.
 */
export async function sendToConversation(ctx: CrmContext, conversationId: string, content: string) {
  const contactId = await contactOfConversation(ctx, conversationId);
  if (isOptedOut(ctx.db, contactId)) throw new OptedOutError(contactId, 'crm');
  const contact = await ctx.client.contacts.get({ id: contactId });
  applyContact(ctx.db, contact);
  if (contact.opted_out) throw new OptedOutError(contactId, 'service');
  try {
    return await ctx.client.conversations.sendMessage({ id: conversationId, content });
  } catch (error) {
    if (isApiError(error, 'CONTACT_OPTED_OUT')) {
      // Opted out between our check and the send: store the service's copy (its `updated_at`, not our clock).
      applyContact(ctx.db, await ctx.client.contacts.get({ id: contactId }));
      throw new OptedOutError(contactId, 'service');
    }
    throw error;
  }
}
