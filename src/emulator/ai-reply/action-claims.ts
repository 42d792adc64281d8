import type { VerifiedToolResult } from '../../api/schemas/custom-reply.js';
import { ACTION_VOCABULARY } from './action-vocabulary.js';
import { replyClauses } from './reply-clauses.js';

/**
 * The fake-action check (docs/custom-reply.md, "The checks"): a reply may say an action was done only when the
 * service's verified tool context shows it. A claim is a verb of ACTION_VOCABULARY, said as done (a predicate in
 * a past or completed form, not in a question, nor after a negation, a modal, "to", or a word such as "if",
 * "once" or "when" that makes it a condition), about this customer's thing: the customer's or a definite one
 * ("your order has been cancelled", "the refund went through", "Refund done"), or done by the business ("I have
 * successfully refunded your payment", "we've issued you a full refund"), whatever words sit between. General
 * statements ("refunds are issued to your card", "last year we shipped to 40 countries") claim nothing.
 * Measured on a held-back corpus (test/emulator/fixtures/action-claims-corpus.json, docs/custom-reply.md).
 */

const BE = new Set(['is', 'are', 'was', 'were', 'be', 'been', 'am', 'got']);
const HAVE = new Set(['have', 'has', 'had']);
/** Before a verb, each makes it something other than a thing done: negated, possible, wished, in progress, asked. */
const NOT_DONE = new Set([
  ...['not', 'never', 'no', 'nothing', 'none', 'without', 'yet'],
  ...['will', 'would', 'can', 'could', 'should', 'may', 'might', 'must', 'shall', 'going', 'able'],
  ...['want', 'wants', 'need', 'needs', 'please', 'let', 'try', 'hope', 'being'],
]);
/** From one of these to the clause's end, what is said is a condition or a time, not a fact. */
const CONDITION = new Set(['if', 'once', 'when', 'whenever', 'after', 'before', 'until', 'till', 'unless', 'whether']);
const DETERMINERS = new Set(['the', 'this', 'that', 'these', 'those', 'a', 'an', 'your', 'my', 'our', 'its', 'their']);
/** A thing named after one of these is a particular one. */
const PARTICULAR = new Set([
  'the',
  'this',
  'that',
  'these',
  'those',
  'it',
  'them',
  'a',
  'an',
  'both',
  'my',
  'everything',
]);
/** A thing named after one of these is things in general. */
const GENERAL = new Set(['most', 'many', 'all', 'some', 'any', 'every', 'each', 'few', 'several', 'other', 'others']);
const SECOND_PERSON = new Set(['you', 'your', 'yours', 'yourself']);
const FIRST_PERSON = new Set(['i', 'we', 'us', 'our', 'me']);
const SUBJECT_PRONOUNS = new Set(['i', 'we', 'you', 'they', 'he', 'she']);
const CUSTOMER = new Set(['you']);

/** Each verb form, with the actions it can claim and the words one of which the clause must then hold (none: any). */
const VERBS = new Map<string, { action: string; objects: readonly string[] | null }[]>();
for (const { action, done, doneWith } of ACTION_VOCABULARY) {
  const add = (verb: string, objects: readonly string[] | null) =>
    VERBS.set(verb, [...(VERBS.get(verb) ?? []), { action, objects }]);
  for (const verb of done) add(verb, null);
  for (const { verbs, objects } of doneWith) for (const verb of verbs) add(verb, objects);
}

const isPlural = (word: string) => /[^su]s$/.test(word);
const has = (words: readonly string[], set: ReadonlySet<string>) => words.some((w) => set.has(w));

/** Whether a noun phrase names a particular thing (yours, or a definite one) rather than things in general. */
function particular(phrase: readonly string[]): boolean {
  if (phrase.length === 0) return false;
  if (has(phrase, SECOND_PERSON)) return true;
  const first = phrase[0]!;
  if (GENERAL.has(first)) return false;
  if (PARTICULAR.has(first)) return true;
  return !isPlural(first) && !isPlural(phrase.at(-1)!);
}

/** The actions one clause claims as done. */
function clauseClaims(words: readonly string[]): string[] {
  const condition = words.findIndex((w) => CONDITION.has(w));
  const end = condition < 0 ? words.length : condition;
  const firstAux = words.findIndex((w) => BE.has(w) || HAVE.has(w));
  const claims: string[] = [];
  for (let i = 0; i < end; i++) {
    const two = `${words[i]} ${words[i + 1]}`;
    const verb = VERBS.has(two) ? two : words[i]!;
    const senses = VERBS.get(verb);
    if (!senses) continue;
    const next = i + verb.split(' ').length;
    const before = words.slice(0, i);
    const aux = before.findLast((w) => BE.has(w) || HAVE.has(w));
    const previous = before.at(-1);
    // "Refunded amounts", "the refunded order", "to reset": no predicate, nothing said to be done.
    const predicate = aux !== undefined || (previous !== undefined && !DETERMINERS.has(previous) && previous !== 'to');
    if (!predicate || has(before, NOT_DONE)) continue;
    const subject = words.slice(0, firstAux >= 0 && firstAux < i ? firstAux : i);
    const objectStart = words[next];
    let about: boolean;
    if (aux !== undefined && BE.has(aux)) {
      // Passive or a state ("your order is cancelled"): the subject is what was acted on, and not the business.
      about = particular(subject) && !has(subject, FIRST_PERSON);
    } else if (previous !== undefined && SUBJECT_PRONOUNS.has(previous) && !FIRST_PERSON.has(previous)) {
      about = false; // "the order you placed": someone else did it
    } else if (has(subject, FIRST_PERSON)) {
      about = has(words, SECOND_PERSON) || (objectStart !== undefined && PARTICULAR.has(objectStart));
    } else {
      // A thing as the subject ("your package shipped", "Refund done"); a person other than us did nothing of ours.
      about = particular(subject) && !has(subject, CUSTOMER);
    }
    if (!about) continue;
    for (const { action, objects } of senses) {
      const named = objects === null || words.some((w) => objects.includes(w) || objects.includes(w.replace(/s$/, '')));
      if (named && !claims.includes(action)) claims.push(action);
    }
  }
  return claims;
}

/** The actions a reply claims to have taken, in ACTION_VOCABULARY's order. */
export function claimedActions(reply: string): string[] {
  const found = new Set(replyClauses(reply).flatMap(clauseClaims));
  return ACTION_VOCABULARY.map((a) => a.action).filter((action) => found.has(action));
}

/** The first action the reply claims that no verified tool result shows, or null when every claim holds. */
export function unverifiedClaim(reply: string, toolContext: readonly VerifiedToolResult[]): string | null {
  const done = new Set(toolContext.flatMap((result) => result.actions));
  return claimedActions(reply).find((action) => !done.has(action)) ?? null;
}
