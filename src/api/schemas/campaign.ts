import { z } from 'zod';
import { Id, TemplateVariables, text, Timestamp, TimestampInput } from './common.js';
import { PageQuery } from './page.js';

export const CampaignStatus = z.enum(['draft', 'scheduled', 'sending', 'sent', 'canceled']);

/** The largest audience one campaign addresses (the spec's audience-import bound). */
export const CAMPAIGN_MAX_CONTACTS = 25_000;

/** Who receives the campaign: listed contacts, contacts with any of the tags, or both. */
export const CampaignAudience = z
  .strictObject({
    contact_ids: z.array(Id).min(1).max(CAMPAIGN_MAX_CONTACTS).optional(),
    tags: z.array(text(64)).min(1).max(20).optional(),
  })
  .refine((a) => a.contact_ids !== undefined || a.tags !== undefined, {
    message: 'expected contact_ids, tags or both',
    path: ['contact_ids'],
  });

const count = z.number().int().min(0);

/** A broadcast of one approved template. `scheduled_at` set means scheduled; null means draft until sent. */
export const Campaign = z.looseObject({
  id: z.string(),
  name: z.string(),
  template_id: z.string(),
  integration_id: z.string().nullable(),
  status: CampaignStatus,
  audience: z.looseObject({ contact_ids: z.array(z.string()).optional(), tags: z.array(z.string()).optional() }),
  /** Template variables by position, the same for every recipient. */
  variables: z.record(z.string(), z.string()),
  scheduled_at: Timestamp.nullable(),
  /** When sending started. */
  sent_at: Timestamp.nullable(),
  /** Why the service canceled a schedule that fell due: the refusal POST …/send would answer (`TEMPLATE_NOT_APPROVED: …`); null otherwise. */
  cancel_reason: z.string().nullable(),
  /**
   * Outcomes so far: `recipients` (audience size once sending starts), `sent` (accepted by the provider),
   * `delivered`, `failed` (rejected, or failed after acceptance) and `skipped` (opted out or no phone: never sent).
   */
  stats: z.looseObject({ recipients: count, sent: count, delivered: count, failed: count, skipped: count }),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Campaign = z.output<typeof Campaign>;

const campaignFields = {
  name: text(200),
  template_id: Id,
  /** The sending number; absent or null: the template's pinned number, else the single active one. */
  integration_id: Id.nullable().optional(),
  audience: CampaignAudience,
  variables: TemplateVariables.optional(),
  /** Future time: the campaign is scheduled; absent: it stays a draft until POST …/send. */
  scheduled_at: TimestampInput.optional(),
};

export const CampaignCreate = z.strictObject(campaignFields);

/** A draft or scheduled campaign only (422 INVALID_STATE otherwise). `scheduled_at: null` returns it to draft. */
export const CampaignUpdate = z.strictObject({
  name: campaignFields.name.optional(),
  template_id: campaignFields.template_id.optional(),
  integration_id: campaignFields.integration_id,
  audience: CampaignAudience.optional(),
  variables: campaignFields.variables,
  scheduled_at: TimestampInput.nullable().optional(),
  /** Cancels a scheduled campaign. */
  status: z.literal('canceled').optional(),
});

/** Filters of GET /v1/campaigns. */
export const CampaignListQuery = PageQuery.extend({ status: CampaignStatus.optional() });
