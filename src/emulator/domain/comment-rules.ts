import type { CommentRule } from '../../api/schemas/comment.js';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A keyword as a whole-word, case-insensitive pattern (docs/ai-and-knowledge.md): "price" finds
 * "Price?" and "the PRICE of", never "priceless" or "overpriced". Words are letters and digits of any
 * script, so "café" is one word; the words of a phrase ("how much") may be apart by any spacing.
 */
export function keywordPattern(keyword: string): RegExp {
  const words = keyword.trim().split(/\s+/u).map(escape).join('\\s+');
  return new RegExp(`(?<![\\p{L}\\p{N}])${words}(?![\\p{L}\\p{N}])`, 'iu');
}

/** The keyword of `rule` found in `text`, or null. */
export function matchedKeyword(rule: Pick<CommentRule, 'keywords'>, text: string): string | null {
  return rule.keywords.find((keyword) => keyword.trim() !== '' && keywordPattern(keyword).test(text)) ?? null;
}

/**
 * The rule that answers a comment on account `integrationId`: the first enabled one, in the settings'
 * order, whose `integration_id` is null or that account and one of whose keywords the comment contains.
 */
export function firstMatchingRule(
  rules: readonly CommentRule[],
  integrationId: string,
  text: string,
): { rule: CommentRule; keyword: string } | null {
  for (const rule of rules) {
    if (!rule.enabled || (rule.integration_id !== null && rule.integration_id !== integrationId)) continue;
    const keyword = matchedKeyword(rule, text);
    if (keyword !== null) return { rule, keyword };
  }
  return null;
}
