import { z } from 'zod';
import { Channel, Id, Platform, TemplateVariables, text, Timestamp } from './common.js';

/** A schedule repeats at most once a minute and at least once a year. */
export const AUTOMATION_MIN_REPEAT_SECONDS = 60;
export const AUTOMATION_MAX_REPEAT_SECONDS = 366 * 24 * 3600;
/** Keywords of one automation at most. */
export const AUTOMATION_MAX_KEYWORDS = 20;
const MAX_CONDITION_VALUES = 20;

/**
 * Which conversations an automation runs on (the spec does not show it; docs/automations.md): every
 * condition named must hold, one left out is no condition, `{}` holds everywhere.
 */
export const AutomationConditions = z.strictObject({
  /** The conversation's channel is one of these. */
  channels: z.array(Platform).min(1).max(Channel.options.length).optional(),
  /** The conversation carries every one of these tags. */
  tags: z.array(text(100)).min(1).max(MAX_CONDITION_VALUES).optional(),
  /** The conversation's `stage` is one of these. */
  stages: z.array(text(100)).min(1).max(MAX_CONDITION_VALUES).optional(),
  /** true: only conversations assigned to a person; false: only unassigned ones. */
  assigned: z.boolean().optional(),
});
export type AutomationConditions = z.output<typeof AutomationConditions>;

/** When a `schedule` automation runs, on the emulator clock. */
export const AutomationSchedule = z.strictObject({
  first_run_at: Timestamp,
  /** null: once. @default null */
  repeat_every_seconds: z
    .number()
    .int()
    .min(AUTOMATION_MIN_REPEAT_SECONDS)
    .max(AUTOMATION_MAX_REPEAT_SECONDS)
    .nullable()
    .optional(),
});
export type AutomationSchedule = z.output<typeof AutomationSchedule>;

export const AutomationTriggerKind = z.enum(['keyword', 'new_conversation', 'schedule', 'api']);
export type AutomationTriggerKind = z.output<typeof AutomationTriggerKind>;

export const Automation = z.looseObject({
  id: z.string(),
  name: z.string(),
  /** What starts it besides an explicit trigger. */
  trigger: AutomationTriggerKind,
  status: z.enum(['active', 'paused']),
  /** The account it sends from; null = the conversation's own account, whichever it is. */
  integration_id: z.string().nullable(),
  /** What a run sends on the conversation; `{{1}}`, `{{2}}` are filled from the trigger's `variables`. */
  content: z.string(),
  /** A `keyword` automation's words: a customer message containing one (whole words, any case) starts it; else []. */
  keywords: z.array(z.string()),
  conditions: AutomationConditions,
  /** A `schedule` automation's times; else null. */
  schedule: AutomationSchedule.nullable(),
  /** When a `schedule` automation runs next on the emulator clock; null when it will not (not scheduled, or done). */
  next_run_at: Timestamp.nullable(),
  last_run_at: Timestamp.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Automation = z.output<typeof Automation>;

/**
 * POST /v1/automations/:id/trigger: run it for a conversation, or for a contact (on the contact's most
 * recently active open conversation). One of the two is required.
 */
export const AutomationTrigger = z
  .strictObject({
    conversation_id: Id.optional(),
    contact_id: Id.optional(),
    /** @default {} */
    variables: TemplateVariables.optional(),
  })
  .refine((t) => t.conversation_id !== undefined || t.contact_id !== undefined, {
    message: 'expected conversation_id, contact_id or both',
    path: ['conversation_id'],
  });

export const AutomationRun = z.looseObject({
  id: z.string(),
  automation_id: z.string(),
  status: z.enum(['queued', 'completed', 'failed']),
  conversation_id: z.string().nullable(),
  contact_id: z.string().nullable(),
  /** The message the run sent (`message.sent` with source `automation`); null in a test key's synthetic answer. */
  message_id: z.string().nullable(),
  created_at: Timestamp,
});
export type AutomationRun = z.output<typeof AutomationRun>;
