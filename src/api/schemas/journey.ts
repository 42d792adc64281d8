import { z } from 'zod';
import { Id, text, Timestamp } from './common.js';
import { BusinessEventName } from './business-event.js';
import { PageQuery } from './page.js';

export const JourneyStatus = z.enum(['draft', 'active', 'paused']);

/** The longest delay a step may wait after the previous one. */
export const JOURNEY_STEP_MAX_DELAY_SECONDS = 90 * 24 * 3600;
/** The most steps one journey maps. */
export const JOURNEY_MAX_STEPS = 20;

/** A step as sent: an organization-owned, approved template, sent `delay_seconds` after the previous step (or the trigger). */
export const JourneyStepInput = z.strictObject({
  template_id: Id,
  delay_seconds: z.number().int().min(0).max(JOURNEY_STEP_MAX_DELAY_SECONDS),
});

export const JourneySteps = z.array(JourneyStepInput).min(1).max(JOURNEY_MAX_STEPS);

/** The most business events one journey answers. */
export const JOURNEY_MAX_EVENTS = 20;

/** The business events (POST /v1/events `event`) that enroll a phone into the journey, each at most once. */
export const JourneyEvents = z
  .array(BusinessEventName)
  .max(JOURNEY_MAX_EVENTS)
  .refine((events) => new Set(events).size === events.length, { message: 'expected each event name once' });

export const Journey = z.looseObject({
  id: z.string(),
  name: z.string(),
  /** The `trigger_name` that enrolls a phone (POST /v1/trigger). */
  trigger_name: z.string(),
  /** The business events (POST /v1/events) that enroll a phone too; empty when only triggers do. */
  events: z.array(z.string()),
  status: JourneyStatus,
  /** Variable positions (`"1"`, `"2"`) the mapped templates need in a trigger's `metadata`. */
  required_variables: z.array(z.string()),
  steps: z.array(
    z.looseObject({
      position: z.number().int().min(0),
      template_id: z.string(),
      template_name: z.string(),
      delay_seconds: z.number().int().min(0),
    }),
  ),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Journey = z.output<typeof Journey>;

export const JourneyCreate = z.strictObject({
  name: text(100),
  trigger_name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_.-]{0,99}$/, 'expected a lower-case trigger name of letters, digits, _ . -')
    .meta({ examples: ['order_followup'] }),
  steps: JourneySteps,
  /** @default [] */
  events: JourneyEvents.optional(),
});

export const JourneyStepsReplace = z.strictObject({ steps: JourneySteps });

/** Activate or pause (docs/resources.md). */
export const JourneyStatusChange = z.strictObject({ status: z.enum(['active', 'paused']) });

/** Filters of GET /v1/journeys. */
export const JourneyListQuery = PageQuery.extend({ status: JourneyStatus.optional() });
