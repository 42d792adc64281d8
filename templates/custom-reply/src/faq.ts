import { readFileSync } from 'node:fs';
import { z } from 'zod';

const FaqEntry = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]{1,50}$/, 'expected 1-50 lower-case letters, digits or dashes'),
  question: z.string().min(1).max(500),
  keywords: z.array(z.string().min(1).max(50)).max(50).default([]),
  /** What the endpoint replies; a message holds at most 4096 characters. */
  answer: z.string().min(1).max(4096),
});

export const FaqFile = z.strictObject({
  business_name: z.string().min(1).max(200),
  /** How many of the customer's words an entry must share before it answers. @default 2 */
  min_score: z.number().int().min(1).max(20).default(2),
  entries: z.array(FaqEntry).min(1).max(500),
});
export type Faq = z.output<typeof FaqFile>;
export type FaqEntry = Faq['entries'][number];

/** Words too common to say what a question is about. */
const STOP_WORDS = new Set(
  'a an and are as at be by can could do does for from have how i if in is it me my of on or our so the there this to us we what when where which who why will with you your'.split(
    ' ',
  ),
);

/** The distinct words of a text, lower-case, without stop words: what questions are compared by. */
export function words(text: string): Set<string> {
  const found = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return new Set(found.filter((w) => w.length > 1 && !STOP_WORDS.has(w)));
}

function overlap(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const word of a) if (b.has(word)) shared += 1;
  return shared;
}

/**
 * The entry sharing the most words with the question (its own question and keywords count), if it
 * shares at least `min_score`. Ties go to the entry listed first, so the same question always gets the
 * same answer.
 */
export function bestEntry<T>(
  question: string,
  candidates: readonly T[],
  wordsOf: (c: T) => Set<string>,
  minScore: number,
): T | null {
  const asked = words(question);
  let best: T | null = null;
  let bestScore = minScore - 1;
  for (const candidate of candidates) {
    const score = overlap(asked, wordsOf(candidate));
    if (score > bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}

export const entryWords = (entry: FaqEntry): Set<string> =>
  new Set([...words(entry.question), ...entry.keywords.flatMap((k) => [...words(k)])]);

/** A FAQ file that does not hold: the message names the file, the entry and the field. */
export class FaqError extends Error {
  override name = 'FaqError';
}

/** Reads and checks the FAQ file; a bad one throws a FaqError naming the entry and the field. */
export function loadFaq(path: string): Faq {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new FaqError(`${path}: ${(error as Error).message}`);
  }
  const parsed = FaqFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const [where, index, ...rest] = issue.path.map(String);
    const name =
      where === 'entries' && index !== undefined
        ? `entry ${Number(index) + 1}${rest.length ? ` (${rest.join('.')})` : ''}`
        : issue.path.join('.') || 'the file';
    throw new FaqError(`${path}: ${name}: ${issue.message}`);
  }
  const ids = new Set<string>();
  for (const entry of parsed.data.entries) {
    if (ids.has(entry.id)) throw new FaqError(`${path}: two entries have the id "${entry.id}"`);
    ids.add(entry.id);
  }
  return parsed.data;
}
