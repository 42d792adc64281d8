import { ApiFailure } from '../../api-failure.js';

// Building blocks of the table: "all (of) the", "your", or "the" before a word such as "previous"; then what is targeted.
// "ignore the rules" alone does not match (ordinary shop text says that); "ignore the previous rules" does.
const WHICH =
  '(?:(?:all|any|every) (?:of )?(?:the |your |my )?|(?:your|my) |(?:the )?(?=(?:previous|prior|above|earlier|preceding|former|system|original) ))';
const WHEN = '(?:(?:previous|prior|above|earlier|preceding|former|system|original) )?';
const WHAT = '(?:instructions?|prompts?|rules|guidelines|directions|directives|programming)';
const targeted = (verb: string) => new RegExp(`\\b${verb} ${WHICH}${WHEN}${WHAT}\\b`);

/**
 * The one table of prompt-injection phrases that knowledge is scanned for (JSON entries and the text
 * extracted from files; docs/ai-and-knowledge.md lists it). Each pattern runs on normalized text:
 * format characters dropped, NFKC, lower case, every run of non-letters and non-digits a single space, so `Ignore   ALL previous
 * instructions!` and `ignore-all-previous-instructions` both match. `phrase` is what a refusal names.
 */
export const INJECTION_PHRASES: readonly { phrase: string; pattern: RegExp }[] = [
  { phrase: 'ignore previous instructions', pattern: targeted('ignore') },
  { phrase: 'disregard previous instructions', pattern: targeted('disregard') },
  { phrase: 'forget your instructions', pattern: targeted('forget') },
  { phrase: 'override your instructions', pattern: targeted('(?:override|bypass)') },
  {
    phrase: 'reveal the system prompt',
    pattern:
      /\b(?:reveal|print|repeat|output|show|leak|disclose) (?:me )?(?:your|the) (?:system prompt|hidden (?:instructions?|prompt)|initial (?:instructions?|prompt)|original (?:instructions?|prompt))\b/,
  },
  { phrase: 'new system prompt', pattern: /\b(?:new|updated|real) system (?:prompt|instructions?)\b/ },
  {
    phrase: 'developer mode',
    pattern: /\b(?:enable|enter|activate|switch to|you are in) (?:developer|dev|god|jailbreak|unrestricted) mode\b/,
  },
  { phrase: 'do anything now', pattern: /\bdo anything now\b/ },
  {
    phrase: 'you are no longer an assistant',
    pattern:
      /\byou are no longer (?:an? )?(?:ai|assistant|chatbot|bound by|restricted)\b|\bfrom now on you (?:are|will act as|will be) (?:an? )?(?:unrestricted|unfiltered|jailbroken|evil)\b/,
  },
  {
    phrase: 'pretend you have no restrictions',
    pattern:
      /\b(?:pretend|act as if|imagine) (?:that )?you (?:have|had) no (?:restrictions|rules|limits|guidelines|filters)\b/,
  },
];

/** Chat-template role markers, matched on the raw text (normalizing would erase their punctuation). */
const ROLE_MARKERS = /<\|im_start\|>|<\|im_end\|>|<\|system\|>|<\|assistant\|>|\[\/?INST\]|<<\/?SYS>>/i;

/**
 * Format characters (Unicode category Cf: zero-width space and joiners, soft hyphen, word joiner, BOM, bidi
 * controls) render as nothing, so `ig\u200bnore` reads as "ignore" to a model; they are dropped before any match.
 */
const FORMAT_CHARACTERS = /\p{Cf}/gu;

const visible = (text: string) => text.replace(FORMAT_CHARACTERS, '');

function normalize(text: string): string {
  return ` ${text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()} `;
}

export interface InjectionMatch {
  phrase: string;
  /** The words that matched, as normalized. */
  match: string;
}

/** The first phrase of the table found in `text`, or null. Linear in the text's length (no nested quantifiers). */
export function findInjection(text: string): InjectionMatch | null {
  const shown = visible(text);
  const marker = ROLE_MARKERS.exec(shown);
  if (marker) return { phrase: 'chat template role marker', match: marker[0] };
  const normalized = normalize(shown);
  for (const { phrase, pattern } of INJECTION_PHRASES) {
    const found = pattern.exec(normalized);
    if (found) return { phrase, match: found[0].trim() };
  }
  return null;
}

/** Refuses knowledge whose fields contain a phrase of the table: 422 PROMPT_INJECTION_DETECTED naming it; nothing is stored. */
export function requireNoInjection(fields: Record<string, string>): void {
  for (const [path, text] of Object.entries(fields)) {
    const found = findInjection(text);
    if (!found) continue;
    throw new ApiFailure(
      'PROMPT_INJECTION_DETECTED',
      `The knowledge ${path} contains the prompt-injection phrase "${found.phrase}" ("${found.match.slice(0, 100)}"); nothing was stored`,
      { details: [{ path, phrase: found.phrase, match: found.match.slice(0, 100) }] },
    );
  }
}
