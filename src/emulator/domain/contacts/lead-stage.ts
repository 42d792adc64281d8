import type { Contact } from '../../../resources/index.js';
import { ApiFailure } from '../../api-failure.js';
import type { EmulatorContext } from '../../route-handler.js';
import { stores } from '../../state/stores.js';
import { applyPatch } from '../shared/changed-fields.js';

/** A stage must be one of GET /v1/pipeline/stages: a wrong one is a bad input value (400), not a state the lead is in. */
export function requireStage(ctx: EmulatorContext, stage: string, field: string): void {
  const { stages } = stores(ctx.db);
  if (stages.get(stage)) return;
  const known = stages
    .all()
    .sort((a, b) => a.position - b.position)
    .map((s) => s.id);
  throw new ApiFailure(
    'VALIDATION_FAILED',
    `${field} must be one of the pipeline stages (${known.join(', ')}); got ${JSON.stringify(stage)}`,
    {
      details: [{ path: field, in: 'body', message: `unknown stage ${JSON.stringify(stage)}` }],
    },
  );
}

/** Changes a contact and announces contact.updated with the fields that really changed (source `api`). */
export function updateContact(
  ctx: EmulatorContext,
  id: string,
  patch: Partial<Pick<Contact, 'name' | 'email' | 'lead_stage'>>,
): Contact {
  const s = stores(ctx.db);
  if (patch.lead_stage !== undefined) requireStage(ctx, patch.lead_stage, 'lead_stage');
  let changed: string[] = [];
  const now = ctx.clock.iso();
  const contact = ctx.db.transaction(() => {
    const updated = s.contacts.update(id, (current) => {
      const result = applyPatch<Contact>(current, patch);
      changed = result.changed;
      return changed.length === 0 ? current : { ...result.next, updated_at: now };
    });
    // The contact's stage, its leads' stages and its conversations' stage are one fact seen from three places.
    if (changed.includes('lead_stage')) {
      for (const lead of s.leads.all({ contact_id: id })) {
        if (lead.stage !== updated.lead_stage)
          s.leads.put({ ...lead, stage: updated.lead_stage, stage_changed_at: now, updated_at: now });
      }
      for (const conversation of s.conversations.all({ contact_id: id }))
        s.conversations.put({ ...conversation, stage: updated.lead_stage });
    }
    return updated;
  })();
  if (changed.length > 0) ctx.events.emit('contact.updated', { ...contact, changed_fields: changed, source: 'api' });
  return contact;
}
