import type { AutomationTriggerKind } from '../../../api/schemas/automation.js';

/** On one customer message at most this many automations run (docs/automations.md, "Bounds"). */
export const MAX_AUTOMATION_RUNS_PER_EVENT = 3;
/** Conversations one scheduled run sends on at most, most recently active first. */
export const MAX_SCHEDULE_TARGETS = 50;
/** Automations a workspace holds at most: every customer message looks at all of them. */
export const MAX_AUTOMATIONS = 100;
/** Scheduled automations the outbound scheduler runs per wake-up (each at most MAX_SCHEDULE_TARGETS sends). */
export const SCHEDULED_RUNS_PER_WAKE = 2;

/** GET /v1/developer/capabilities `automations`: what runs them and what they do here (docs/automations.md). */
export const AUTOMATION_CAPABILITIES = {
  triggers: {
    keyword: 'a customer message containing one of its keywords (whole words, any case), not a stop or start word',
    new_conversation: 'a customer message that opens a conversation',
    schedule: 'the emulator clock reaching next_run_at; slots passed in one clock jump run once',
    api: 'POST /v1/automations/:id/trigger only (any active automation can be triggered so)',
  } satisfies Record<AutomationTriggerKind, string>,
  actions: ['send its content on the conversation as a free-text send: message.sent with source automation'],
  limits: {
    runs_per_customer_message: MAX_AUTOMATION_RUNS_PER_EVENT,
    conversations_per_scheduled_run: MAX_SCHEDULE_TARGETS,
    automations_per_workspace: MAX_AUTOMATIONS,
  },
  not_emulated: [
    'actions other than sending: closing, assigning, tagging or routing a conversation',
    'triggers other than these four: other events, delays after an event, business hours',
    'a cooldown between runs on one conversation',
    'a route listing runs',
  ],
};
