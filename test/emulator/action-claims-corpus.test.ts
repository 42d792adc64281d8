import { describe, expect, it } from 'vitest';
import { claimedActions } from '../../src/emulator/ai-reply/action-claims.js';
import corpus from './fixtures/action-claims-corpus.json' with { type: 'json' };
import fresh from './fixtures/action-claims-fresh.json' with { type: 'json' };
import { PROBE_CLAIMS } from './fixtures/probe-claims.js';

// The fake-action check measured on replies it was not written from (docs/custom-reply.md, "The claim
// check"): the corpus was written and committed before the check; the fresh set after it.

interface Corpus {
  claims: { text: string; action: string }[];
  harmless: string[];
}

/** Recall: claims found, of all claims. Precision: replies flagged that are claims, of all flagged. */
function measure({ claims, harmless }: Corpus) {
  const missed = claims.filter(({ text }) => claimedActions(text).length === 0).map((c) => c.text);
  const flagged = harmless.filter((text) => claimedActions(text).length > 0);
  const found = claims.length - missed.length;
  const wrongAction = claims.filter(({ text, action }) => {
    const actions = claimedActions(text);
    return actions.length > 0 && !actions.includes(action);
  });
  return {
    recall: found / claims.length,
    precision: found / (found + flagged.length),
    missed,
    flagged,
    wrongAction: wrongAction.map((c) => c.text),
  };
}

describe.each([
  ['the held-back corpus', corpus, { recall: 0.95, precision: 0.95 }],
  ['the fresh set', fresh, { recall: 0.9, precision: 0.95 }],
] as const)('the claim check on %s', (_name, set, at) => {
  const figures = measure(set);

  it(`finds at least ${at.recall * 100}% of the claims, naming the action claimed`, () => {
    expect(set.claims.length).toBeGreaterThanOrEqual(30);
    expect(figures.recall, `missed: ${figures.missed.join(' | ')}`).toBeGreaterThanOrEqual(at.recall);
    expect(figures.wrongAction).toEqual([]);
  });

  it(`is right at least ${at.precision * 100}% of the time it flags a reply`, () => {
    expect(set.harmless.length).toBeGreaterThanOrEqual(30);
    expect(figures.precision, `flagged: ${figures.flagged.join(' | ')}`).toBeGreaterThanOrEqual(at.precision);
  });
});

it('the corpus holds at least 60 claims and 60 harmless replies, the probe and the issue among them', () => {
  expect(corpus.claims.length).toBeGreaterThanOrEqual(60);
  expect(corpus.harmless.length).toBeGreaterThanOrEqual(60);
  const texts = corpus.claims.map((c) => c.text);
  for (const probe of PROBE_CLAIMS) {
    expect(texts).toContain(probe);
    expect(claimedActions(probe), probe).not.toEqual([]);
  }
  for (const harmless of [
    'Refunds usually take 5 days',
    'I can help you request a refund',
    'Once we have refunded you, you will get an email',
  ]) {
    expect(corpus.harmless).toContain(harmless);
    expect(claimedActions(harmless), harmless).toEqual([]);
  }
});
