/** Contractions spelled out, so "order's been", "we've" and "hasn't" read as the words they stand for. */
const SPELLED_OUT: readonly [RegExp, string][] = [
  [/[’‘`]/g, "'"],
  [/\bwon't\b/g, 'will not'],
  [/\bcan't\b/g, 'can not'],
  [/\bshan't\b/g, 'shall not'],
  [/n't\b/g, ' not'],
  [/'ve\b/g, ' have'],
  [/'re\b/g, ' are'],
  [/'m\b/g, ' am'],
  [/'ll\b/g, ' will'],
  [/'d\b/g, ' would'],
  [/'s (been|got|gone)\b/g, ' has $1'],
  [/\b(it|that|there|here|what|he|she|who)'s\b/g, '$1 is'],
  [/'s\b/g, ''],
  // "20% off" is a discount; "as soon as" and "in case" are conditions, like "once" and "if".
  [/(\d)\s*%\s*off\b/g, '$1 percent-off'],
  [/\bas soon as\b/g, 'once'],
  [/\b(?:in case|provided that)\b/g, 'if'],
];

/** Where a sentence ends: . ! ? before a space or the end (not "€8.50", "acme.example"), or a line break. */
const SENTENCE_END = /(?<=[.!?])\s+|\n+/;
/** Where a clause of a sentence ends: , ; or : before a space (not "10:15"), or a dash between spaces. */
const CLAUSE_END = /[,;:](?=\s|$)|\s[-–—]+\s/;
const WORD = /[\p{L}\p{N}$€£][\p{L}\p{N}$€£'-]*/gu;

/**
 * The clauses of a reply's statements, each as its lower-case words with contractions spelled out. A question
 * claims nothing, so a sentence ending in "?" is left out.
 */
export function replyClauses(reply: string): string[][] {
  let text = reply.toLowerCase();
  for (const [pattern, words] of SPELLED_OUT) text = text.replace(pattern, words);
  return text
    .split(SENTENCE_END)
    .filter((sentence) => !sentence.trim().endsWith('?'))
    .flatMap((sentence) => sentence.split(CLAUSE_END))
    .map((clause) => clause.match(WORD) ?? [])
    .filter((words) => words.length > 0);
}
