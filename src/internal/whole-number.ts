/**
 * `text` as a whole number from `min` to `max` (decimal digits, an optional leading minus, blanks around it),
 * else undefined: the one rule for the counts, ports and limits people type, in an app's settings
 * (`wholeNumber`) and in the CLI's flags (`parseInteger`), each of which words its own refusal.
 */
export function wholeNumberIn(text: string, min: number, max: number): number | undefined {
  const trimmed = text.trim();
  if (!/^-?\d+$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isSafeInteger(value) && value >= min && value <= max ? value : undefined;
}
