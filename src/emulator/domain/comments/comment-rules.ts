import type { CommentRule } from '../../../api/schemas/comment.js';
import { containsKeyword } from '../shared/keyword-match.js';

/**
 * The rule that answers a comment on account `integrationId`: the first enabled one, in the settings'
 * order, whose `integration_id` is null or that account and one of whose keywords the comment contains.
 */
export function firstMatchingRule(
  rules: readonly CommentRule[],
  integrationId: string,
  text: string,
): CommentRule | null {
  const applies = (rule: CommentRule) =>
    rule.enabled && (rule.integration_id === null || rule.integration_id === integrationId);
  return rules.find((rule) => applies(rule) && containsKeyword(rule.keywords, text)) ?? null;
}
