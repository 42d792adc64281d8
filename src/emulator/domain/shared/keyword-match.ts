import { escapeRegExp } from '../../../internal/escape-reg-exp.js';

/**
 * A keyword as a whole-word, case-insensitive pattern (docs/ai-and-knowledge.md): "price" finds
 * "Price?" and "the PRICE of", never "priceless" or "overpriced". Words are letters and digits of any
 * script, so "café" is one word; the words of a phrase ("how much") may be apart by any spacing.
 */
function keywordPattern(keyword: string): RegExp {
  const words = keyword.trim().split(/\s+/u).map(escapeRegExp).join('\\s+');
  return new RegExp(`(?<![\\p{L}\\p{N}])${words}(?![\\p{L}\\p{N}])`, 'iu');
}

/** Does `text` contain one of `keywords` as whole words? A blank keyword matches nothing. */
export function containsKeyword(keywords: readonly string[], text: string): boolean {
  return keywords.some((keyword) => keyword.trim() !== '' && keywordPattern(keyword).test(text));
}
