import type { AutomationConditions } from '../../../api/schemas/automation.js';
import type { Conversation } from '../../../resources/index.js';

/**
 * Does `conversation`, as it is when the run starts, meet every condition `conditions` names
 * (docs/automations.md, "Conditions")? A condition left out holds; `{}` holds everywhere.
 */
export function conditionsHold(conditions: AutomationConditions, conversation: Conversation): boolean {
  const { channels, tags, stages, assigned } = conditions;
  if (channels && !channels.includes(conversation.channel)) return false;
  if (tags && !tags.every((tag) => conversation.tags.includes(tag))) return false;
  if (stages && !stages.includes(conversation.stage)) return false;
  if (assigned !== undefined && (conversation.assignee !== null) !== assigned) return false;
  return true;
}
