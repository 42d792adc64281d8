/** `text` with every regular-expression metacharacter escaped, so a pattern matches it literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
