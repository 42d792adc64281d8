import type { CommentRule } from '../../api/schemas/comment.js';
import { escapeRegExp } from '../../internal/escape-reg-exp.js';

/**
 * A keyword as a whole-word, case-insensitive pattern (docs/ai-and-knowledge.md): "price" finds
 * "Price?" and "the PRICE of", never "priceless" or "overpriced". Words are letters and digits of any
 * script, so "café" is one word; the words of a phrase ("how much") may be apart by any spacing.
 */
function keywordPattern(keyword: string): RegExp {
  const words = keyword.trim().split(/\s+/u).map(escapeRegExp).join('\\s+');
  return new RegExp(`(?<![\\p{L}\\p{N}])${words}(?![\\p{L}\\p{N}])`, 'iu');
}

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
  const contains = (keyword: string) => keyword.trim() !== '' && keywordPattern(keyword).test(text);
  return rules.find((rule) => applies(rule) && rule.keywords.some(contains)) ?? null;
}
