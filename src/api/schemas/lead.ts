import { z } from 'zod';
import { Id, text, Timestamp } from './common.js';
import { PageQuery } from './page.js';

/** A stage of the pipeline. The default list (docs/resources.md): new, contacted, qualified, proposal, won, lost. */
export const Stage = z.looseObject({
  id: z.string(),
  name: z.string(),
  /** 0-based order on the board. */
  position: z.number().int().min(0),
  /** `won` and `lost` end a lead's journey through the pipeline. */
  terminal: z.boolean(),
});
export type Stage = z.output<typeof Stage>;

/** A pipeline lead: a contact's deal, with its stage and conversation context. */
export const Lead = z.looseObject({
  id: z.string(),
  contact_id: z.string(),
  conversation_id: z.string().nullable(),
  name: z.string(),
  stage: z.string(),
  owner: z.string().nullable(),
  /** Expected deal value in the workspace currency, or null when unknown. */
  value: z.number().min(0).nullable(),
  notes: z.string().nullable(),
  stage_changed_at: Timestamp,
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Lead = z.output<typeof Lead>;

export const LeadUpdate = z.strictObject({
  name: text(200).optional(),
  owner: text(100).nullable().optional(),
  value: z.number().min(0).max(1e12).nullable().optional(),
  notes: z.string().max(10_000).nullable().optional(),
});

/** Moving a lead names the target stage id (one of GET /v1/pipeline/stages). */
export const LeadMove = z.strictObject({ stage: Id });

/** Filters of GET /v1/pipeline. */
export const LeadListQuery = PageQuery.extend({ stage: text(64).optional(), owner: text(100).optional() });
