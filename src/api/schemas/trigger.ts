import { z } from 'zod';
import { Id, PhoneNumber, TemplateVariables, text, Timestamp } from './common.js';
import { PageQuery } from './page.js';

/** The spec's trigger `metadata`: keys are variable positions as strings. */
export const TriggerMetadata = TemplateVariables;

/** POST /v1/trigger: enroll a phone into the journey whose trigger is `trigger_name`. */
export const TriggerRequest = z.strictObject({
  trigger_name: text(100),
  phone: PhoneNumber,
  /** @default {} */
  metadata: TriggerMetadata.optional(),
});

/** POST /v1/webhooks/send (and its alias trigger-campaign): a trigger, optionally sent now instead of after the first delay. */
export const WebhookSendRequest = TriggerRequest.extend({
  /** Skip the first step's delay. @default false */
  send_now: z.boolean().optional(),
});

/** The answer to a trigger: follow `status_url` to learn what happened to the first send. */
export const TriggerResult = z.looseObject({
  enrollment_id: z.string(),
  journey_id: z.string(),
  /** The automation action id of the first step; the `:id` of `status_url`. */
  action_id: z.string(),
  /** GET this for the outcome: a path relative to the base address, `/v1/trigger/status/<action_id>`. */
  status_url: z.string(),
  created_at: Timestamp,
});

export const EnrollmentStatus = z.enum(['active', 'completed', 'stopped', 'failed']);

export const Enrollment = z.looseObject({
  id: z.string(),
  journey_id: z.string(),
  trigger_name: z.string(),
  phone: z.string(),
  metadata: z.record(z.string(), z.string()),
  status: EnrollmentStatus,
  /** 0-based index of the next step to send, or of the last step once finished. */
  current_step: z.number().int().min(0),
  /** The automation action id of every step sent or scheduled so far, in step order (GET /v1/trigger/status/:id). */
  action_ids: z.array(z.string()),
  /** When the next step is due on the service's clock; null once the enrollment ended. */
  next_step_at: Timestamp.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Enrollment = z.output<typeof Enrollment>;

/** Who a failure is attributed to (spec: platform or provider). */
export const Fault = z.enum(['platform', 'provider']);

/** GET /v1/trigger/status/:id: a delivery outcome in plain language. */
export const TriggerStatus = z.looseObject({
  action_id: z.string(),
  enrollment_id: z.string(),
  status: z.enum(['scheduled', 'sent', 'delivered', 'failed', 'skipped']),
  what_happened: z.string(),
  /** Null when nothing went wrong. */
  fault: Fault.nullable(),
  next_step: z.string().nullable(),
  error_code: z.string().nullable(),
  updated_at: Timestamp,
});

const quotaCount = z.number().int().min(0);

export const TriggerLimits = z.looseObject({
  /** Enrollments allowed per period; null when unlimited. */
  quota: quotaCount.nullable(),
  used: quotaCount,
  remaining: quotaCount.nullable(),
  period_resets_at: Timestamp,
  /** Journeys the workspace has against the plan's journey quota (POST /v1/journeys beyond it is 422); null when unlimited. */
  journeys: z.looseObject({ quota: quotaCount.nullable(), used: quotaCount, remaining: quotaCount.nullable() }),
});

export const TriggerValidation = z.looseObject({
  valid: z.boolean(),
  journey_id: z.string().nullable(),
  /** Variable positions the journey's templates need that `metadata` lacks. */
  missing_variables: z.array(z.string()),
  issues: z.array(z.looseObject({ path: z.string(), message: z.string() })),
});

/** Batch enroll: at most 100 recipients per call (spec, Limits). */
export const TRIGGER_BATCH_MAX = 100;

export const TriggerBatchRequest = z.strictObject({
  trigger_name: text(100),
  recipients: z
    .array(z.strictObject({ phone: PhoneNumber, metadata: TriggerMetadata.optional() }))
    .min(1)
    .max(TRIGGER_BATCH_MAX),
});

/** One row per recipient, in request order; a failed row never fails the others. */
export const TriggerBatchResult = z.looseObject({
  results: z.array(
    z.looseObject({
      index: z.number().int().min(0),
      phone: z.string(),
      ok: z.boolean(),
      enrollment_id: z.string().nullable(),
      error: z.looseObject({ code: z.string(), message: z.string() }).nullable(),
    }),
  ),
});

/**
 * DELETE /v1/trigger/enrollments: stop the active enrollments of a phone, of a journey, or of a phone in one
 * journey. Strict: a misspelt `phone` beside `journey_id` would otherwise stop every phone of the journey.
 */
export const StopEnrollmentsQuery = z
  .strictObject({ phone: PhoneNumber.optional(), journey_id: Id.optional() })
  .refine((q) => q.phone !== undefined || q.journey_id !== undefined, {
    message: 'expected phone, journey_id or both',
    path: ['phone'],
  });

export const StopEnrollmentsResult = z.looseObject({ stopped: z.number().int().min(0) });

/** Filters of GET /v1/trigger/history. */
export const EnrollmentHistoryQuery = PageQuery.extend({
  phone: PhoneNumber.optional(),
  journey_id: Id.optional(),
  status: EnrollmentStatus.optional(),
});
