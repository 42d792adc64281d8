import { z } from 'zod';
import { Id, TemplateVariables, Timestamp } from './common.js';

export const Automation = z.looseObject({
  id: z.string(),
  name: z.string(),
  /** What starts it besides an explicit trigger. */
  trigger: z.enum(['keyword', 'new_conversation', 'schedule', 'api']),
  status: z.enum(['active', 'paused']),
  integration_id: z.string().nullable(),
  last_run_at: Timestamp.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Automation = z.output<typeof Automation>;

/** POST /v1/automations/:id/trigger: run it for a conversation or a contact. */
export const AutomationTrigger = z.strictObject({
  conversation_id: Id.optional(),
  contact_id: Id.optional(),
  /** @default {} */
  variables: TemplateVariables.optional(),
});

export const AutomationRun = z.looseObject({
  id: z.string(),
  automation_id: z.string(),
  status: z.enum(['queued', 'completed', 'failed']),
  conversation_id: z.string().nullable(),
  contact_id: z.string().nullable(),
  created_at: Timestamp,
});
export type AutomationRun = z.output<typeof AutomationRun>;
