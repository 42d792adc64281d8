/** Words too common to say what a message is about; they never count towards a match. */
const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have hello hi how i if in is it its ' +
    'me my no not of on or our please so than that the their them then there these they this to us was we were what ' +
    'when where which who why will with would you your'
  ).split(' '),
);

/** The distinct words of a text, lower-case, without stop words. */
export function contentWords(text: string): Set<string> {
  const found = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return new Set(found.filter((word) => word.length > 1 && !STOP_WORDS.has(word)));
}

export interface Scored<T> {
  item: T;
  score: number;
}

/**
 * The items sharing at least one word with `text`, most shared words first; ties keep the given order,
 * so the same message always ranks the same entries the same way (deterministic, no model).
 */
export function rankByOverlap<T>(text: string, items: readonly T[], textOf: (item: T) => string): Scored<T>[] {
  const asked = contentWords(text);
  const scored: Scored<T>[] = [];
  for (const item of items) {
    let score = 0;
    for (const word of contentWords(textOf(item))) if (asked.has(word)) score += 1;
    if (score > 0) scored.push({ item, score });
  }
  return scored.sort((a, b) => b.score - a.score);
}

/** Whole sentences from the start of `text`, at most `max` characters (a hard cut only for one long sentence). */
export function leadingSentences(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  let kept = '';
  for (const sentence of flat.match(/[^.!?]+[.!?]*\s*/g) ?? []) {
    if ((kept + sentence).trimEnd().length > max) break;
    kept += sentence;
  }
  return kept.trimEnd() || `${flat.slice(0, max - 1)}…`;
}
