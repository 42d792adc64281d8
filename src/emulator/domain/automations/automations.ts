import type { z } from 'zod';
import type { AutomationRun, AutomationTrigger } from '../../../api/schemas/automation.js';
import type { Conversation } from '../../../resources/index.js';
import { ApiFailure } from '../../api-failure.js';
import type { EmulatorContext } from '../../route-handler.js';
import type { AutomationRecord } from '../../state/records.js';
import { stores, type Stores } from '../../state/stores.js';
import { sendMessage } from '../messages/send-message.js';
import { fillTemplate } from '../templates/template-variables.js';

type TriggerBody = z.output<typeof AutomationTrigger>;

/**
 * The conversation a run sends on: the one named, or the contact's most recently active open
 * conversation (on the automation's account when it has one). A conversation and a contact that do
 * not belong together are a 400 naming `contact_id`.
 */
function targetConversation(s: Stores, automation: AutomationRecord, body: TriggerBody): Conversation {
  if (body.conversation_id !== undefined) {
    const conversation = s.conversations.require(body.conversation_id, 'conversation');
    if (body.contact_id !== undefined && body.contact_id !== conversation.contact_id) {
      throw new ApiFailure(
        'VALIDATION_FAILED',
        `Conversation ${conversation.id} belongs to contact ${conversation.contact_id}, not ${body.contact_id}`,
        { details: [{ path: 'contact_id', in: 'body', message: "not the conversation's contact" }] },
      );
    }
    return conversation;
  }
  const contact = s.contacts.require(body.contact_id!, 'contact');
  const open = s.conversations
    .all({ contact_id: contact.id, integration_id: automation.integration_id ?? undefined })
    .filter((c) => c.status !== 'closed')
    .sort((a, b) => (a.latest_activity_at < b.latest_activity_at ? 1 : -1));
  if (!open[0]) {
    const where = automation.integration_id ? ` on ${automation.integration_id}` : '';
    throw new ApiFailure(
      'INVALID_STATE',
      `Contact ${contact.id} has no open conversation${where} for automation ${automation.id} to send on`,
    );
  }
  return open[0];
}

/**
 * One run of `automation` on `conversation`, whatever started it: its `content`, variables filled, is sent
 * like any free-text send (account, opt-out, service-window, quota and provider rules), stored with
 * `automation_id` and announced as `message.sent` with source `automation`; the run is stored and
 * `last_run_at` set. A refusal throws the send's error and stores nothing.
 */
export function runAutomation(
  ctx: EmulatorContext,
  automation: AutomationRecord,
  conversation: Conversation,
  variables: Readonly<Record<string, string>>,
): AutomationRun {
  const s = stores(ctx.db);
  const content = fillTemplate(automation.content, variables, 'variables', `automation ${automation.id}`);
  const message = sendMessage(ctx, conversation, { content }, 'automation', { automation_id: automation.id });
  const run: AutomationRun = {
    id: ctx.newId('run'),
    automation_id: automation.id,
    status: 'completed',
    conversation_id: conversation.id,
    contact_id: conversation.contact_id,
    message_id: message.id,
    created_at: message.created_at,
  };
  ctx.db.transaction(() => {
    s.automationRuns.insert(run);
    // Read again: a scheduled run sends on many conversations, and its schedule moved before the first.
    s.automations.update(automation.id, (current) => ({ ...current, last_run_at: run.created_at }));
  })();
  return run;
}

/**
 * POST /v1/automations/:id/trigger with a live key (docs/automations.md): runs an `active` automation
 * once, now, whatever its trigger kind. A refusal answers the send's error and stores no run; a run
 * answers `completed`.
 */
export function triggerAutomation(ctx: EmulatorContext, id: string, body: TriggerBody): AutomationRun {
  const s = stores(ctx.db);
  const automation = s.automations.require(id, 'automation');
  if (automation.status !== 'active') {
    throw new ApiFailure('INVALID_STATE', `Automation ${id} is ${automation.status}; only an active one runs`);
  }
  const conversation = targetConversation(s, automation, body);
  if (automation.integration_id !== null && automation.integration_id !== conversation.integration_id) {
    throw new ApiFailure(
      'ACCOUNT_MISMATCH',
      `Automation ${id} sends from ${automation.integration_id}; conversation ${conversation.id} is on ${conversation.integration_id}`,
      {
        details: [
          { integration_id: automation.integration_id, conversation_integration_id: conversation.integration_id },
        ],
      },
    );
  }
  return runAutomation(ctx, automation, conversation, body.variables ?? {});
}
