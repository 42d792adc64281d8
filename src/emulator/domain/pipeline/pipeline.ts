import type { z } from 'zod';
import type { Lead, LeadUpdate } from '../../../resources/index.js';
import type { EmulatorContext } from '../../route-handler.js';
import { stores } from '../../state/stores.js';
import { applyPatch } from '../shared/changed-fields.js';
import { requireStage, updateContact } from '../contacts/lead-stage.js';

/** PATCH /v1/pipeline/leads/:id: name, owner, value, notes (the stage moves with moveLead). */
export function updateLead(ctx: EmulatorContext, id: string, patch: z.output<typeof LeadUpdate>): Lead {
  return stores(ctx.db).leads.update(id, (current) => {
    const { next, changed } = applyPatch(current, patch);
    return changed.length === 0 ? current : { ...next, updated_at: ctx.clock.iso() };
  });
}

/** PATCH /v1/pipeline/leads/:id/stage: moves the lead and its contact's lead stage (contact.updated). */
export function moveLead(ctx: EmulatorContext, id: string, stage: string): Lead {
  const { leads } = stores(ctx.db);
  requireStage(ctx, stage, 'stage');
  const lead = leads.require(id, 'lead');
  if (lead.stage === stage) return lead;
  const now = ctx.clock.iso();
  const moved = leads.put({ ...lead, stage, stage_changed_at: now, updated_at: now });
  updateContact(ctx, lead.contact_id, { lead_stage: stage });
  return leads.get(id) ?? moved;
}
