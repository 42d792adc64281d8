import type { AutomationRun } from '../../../api/schemas/automation.js';
import type { Conversation, Message } from '../../../resources/index.js';
import { ApiFailure } from '../../api-failure.js';
import type { EmulatorContext } from '../../route-handler.js';
import type { AutomationRecord } from '../../state/records.js';
import { stores } from '../../state/stores.js';
import { MAX_AUTOMATION_RUNS_PER_EVENT } from './automation-bounds.js';
import { conditionsHold } from './automation-conditions.js';
import { runAutomation } from './automations.js';
import { containsKeyword } from '../shared/keyword-match.js';

/** Does `automation` send on `conversation` (its account, then its conditions)? */
export function appliesTo(automation: AutomationRecord, conversation: Conversation): boolean {
  return (
    (automation.integration_id === null || automation.integration_id === conversation.integration_id) &&
    conditionsHold(automation.conditions, conversation)
  );
}

/**
 * The automations a customer message starts (docs/automations.md): when it opened the conversation, the
 * active `new_conversation` ones, then the active `keyword` ones whose keywords it contains (unless it is
 * a stop or start word, which the opt-out rules own); each where its account and conditions apply, in the
 * order they were defined, at most MAX_AUTOMATION_RUNS_PER_EVENT. A run the send rules refuse (opted out, window closed, quota,
 * provider) is skipped and logged. Only customer messages start them: an automation's own send never does,
 * so no automation can start itself.
 */
export function runInboundAutomations(
  ctx: EmulatorContext,
  message: Message,
  opened: boolean,
  optWord: boolean,
): AutomationRun[] {
  if (message.direction !== 'received') return [];
  const s = stores(ctx.db);
  // Stored newest first: reversed, the order the workspace defined them (a replaced one keeps its place).
  const active = s.automations.all({ status: 'active' }).reverse();
  const started = [
    ...(opened ? active.filter((a) => a.trigger === 'new_conversation') : []),
    ...(optWord ? [] : active.filter((a) => a.trigger === 'keyword' && containsKeyword(a.keywords, message.content))),
  ];
  const runs: AutomationRun[] = [];
  for (const automation of started) {
    // Read again before each run: the one before moved the conversation's preview and activity.
    const conversation = s.conversations.require(message.conversation_id, 'conversation');
    if (!appliesTo(automation, conversation)) continue;
    if (runs.length === MAX_AUTOMATION_RUNS_PER_EVENT) {
      ctx.logger.warn(
        { automation_id: automation.id, message_id: message.id, limit: MAX_AUTOMATION_RUNS_PER_EVENT },
        'automation not run: the per-message limit of automatic runs was reached',
      );
      continue;
    }
    try {
      runs.push(runAutomation(ctx, automation, conversation, {}));
    } catch (error) {
      if (!(error instanceof ApiFailure)) throw error;
      ctx.logger.info(
        { automation_id: automation.id, conversation_id: conversation.id, code: error.code },
        'automation run refused by the send rules',
      );
    }
  }
  return runs;
}
