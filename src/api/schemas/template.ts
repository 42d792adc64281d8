import { z } from 'zod';
import { Id, templateCopy, TemplateVariables, text, Timestamp } from './common.js';
import { PageQuery } from './page.js';

export const TemplateStatus = z.enum(['draft', 'pending_review', 'approved', 'rejected', 'paused', 'disabled']);
export const TemplateCategory = z.enum(['UTILITY', 'MARKETING']);
export const TemplateQuality = z.enum(['high', 'medium', 'low', 'unknown']);

/** The provider's body limit for a template. */
export const TEMPLATE_BODY_MAX_CHARS = 1024;

const TemplateBody = templateCopy(TEMPLATE_BODY_MAX_CHARS);

/** The template validation response (spec). */
export const TemplateValidation = z.looseObject({
  validation_status: z.enum(['passed', 'needs_changes', 'rejected']),
  proposed_category: TemplateCategory,
  policy_risk: z.enum(['low', 'medium', 'high']),
  utility_coaching: z.looseObject({
    flagged_phrases: z.array(z.string()),
    qualifies_as_utility: z.boolean(),
    estimated_saving_pct: z.number().min(0).max(100),
  }),
});
export type TemplateValidation = z.output<typeof TemplateValidation>;

export const Template = z.looseObject({
  id: z.string(),
  /** The provider's template name. */
  name: z.string(),
  language: z.string(),
  category: TemplateCategory,
  /** The service's and the provider's review state. */
  status: TemplateStatus,
  quality: TemplateQuality,
  /** The draft copy, with `{{1}}`-style variables. */
  body: z.string(),
  /** Variable positions the body uses, e.g. ["1", "2"]. */
  variables: z.array(z.string()),
  /** The sender number this template is pinned to, if any. */
  pinned_integration_id: z.string().nullable(),
  rejection_reason: z.string().nullable(),
  validation: TemplateValidation.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Template = z.output<typeof Template>;

/** POST /v1/templates: a draft, submitted to the provider on creation. */
export const TemplateCreate = z.strictObject({
  name: z
    .string()
    .regex(/^[a-z0-9_]{1,512}$/, 'expected lower-case letters, digits and _ (at most 512)')
    .meta({ examples: ['order_update'] }),
  /** @default "en" */
  language: z
    .string()
    .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, 'expected a language code such as en or pt_BR')
    .meta({ examples: ['en'] })
    .optional(),
  category: TemplateCategory,
  body: TemplateBody,
  /** The number sends go from when they name none; absent or null: not pinned. */
  pinned_integration_id: Id.nullable().optional(),
});

/** POST /v1/templates/generate/validate: copy or an objective, checked before anything is stored. */
export const TemplateDraftValidate = z
  .strictObject({
    body: TemplateBody.optional(),
    objective: text(500).optional(),
    category: TemplateCategory.optional(),
  })
  .refine((d) => d.body !== undefined || d.objective !== undefined, {
    message: 'expected body, objective or both',
    path: ['body'],
  });

/**
 * POST /v1/templates/:id/send. `to` is the digits of the phone number (no plus). The sender: explicit
 * `integration_id`, else the template's pinned number, else the single active number; else 409 AMBIGUOUS_INTEGRATION.
 */
export const TemplateSend = z.strictObject({
  to: z
    .string()
    .regex(/^[1-9]\d{6,14}$/, 'expected the digits of an international phone number, e.g. 14155550123')
    .meta({ examples: ['14155550123'] }),
  integration_id: Id.optional(),
  /** @default {} */
  variables: TemplateVariables.optional(),
});

/** Filters of GET /v1/templates. */
export const TemplateListQuery = PageQuery.extend({
  status: TemplateStatus.optional(),
  category: TemplateCategory.optional(),
});
