import { z } from 'zod';
import { Id, TemplateVariables, Timestamp } from './common.js';

export const Automation = z.looseObject({
  id: z.string(),
  name: z.string(),
  /** What starts it besides an explicit trigger. */
  trigger: z.enum(['keyword', 'new_conversation', 'schedule', 'api']),
  status: z.enum(['active', 'paused']),
  /** The account it sends from; null = the conversation's own account, whichever it is. */
  integration_id: z.string().nullable(),
  /** What a run sends on the conversation; `{{1}}`, `{{2}}` are filled from the trigger's `variables`. */
  content: z.string(),
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
