import type { TemplateValidation } from '../../../resources/index.js';
import type { TemplateCategory } from '../../../api/schemas/template.js';
import type { z } from 'zod';
import { escapeRegExp } from '../../../internal/escape-reg-exp.js';

type Category = z.output<typeof TemplateCategory>;

/**
 * The phrase tables of template validation (docs/outbound.md, "Template validation"). Matching is
 * case-insensitive on whole words, so the same copy always gets the same answer.
 */
export const PROMOTIONAL_PHRASES: readonly string[] = [
  'sale',
  'discount',
  'off everything',
  'limited time',
  'buy now',
  'shop now',
  'order now',
  'free gift',
  'special offer',
  'exclusive',
  'deal',
  'promo',
  'coupon',
  'last chance',
  "don't miss",
  'we miss you',
  'come back',
  'surprise',
  'new arrivals',
];

/** Cues that the message completes something the customer started: what makes copy UTILITY. */
export const TRANSACTIONAL_CUES: readonly string[] = [
  'order',
  'shipped',
  'shipping',
  'delivery',
  'arrives',
  'tracking',
  'appointment',
  'reservation',
  'booking',
  'receipt',
  'invoice',
  'payment',
  'refund',
  'account',
  'password',
  'verification code',
  'confirm',
  'confirmed',
  'reminder',
  'ticket',
  'visit',
];

/** Phrases the provider's policy review rejects outright. */
export const HIGH_RISK_PHRASES: readonly string[] = [
  'guaranteed',
  'risk-free',
  'act now',
  'click here',
  'you are a winner',
  'you have won',
  'crypto',
  'payday loan',
  'miracle',
];

/** What UTILITY pricing saves against MARKETING, in percent (the emulator's figure, not the provider's rate card). */
export const UTILITY_SAVING_PCT = 75;

/** Promotional phrases at or above this count are a medium policy risk even in MARKETING copy. */
const PROMOTIONAL_MEDIUM_RISK = 3;

/** The phrases of `table` that occur in `text` as whole words, in table order. */
export function phrasesIn(table: readonly string[], text: string): string[] {
  const lower = text.toLowerCase();
  return table.filter((phrase) => new RegExp(`(^|[^a-z0-9])${escapeRegExp(phrase)}($|[^a-z0-9])`).test(lower));
}

/**
 * Category fit, policy risk and UTILITY coaching of template copy. `category` is the one asked for
 * (absent for an objective that has none yet).
 *
 * - `qualifies_as_utility`: at least one transactional cue and no promotional phrase.
 * - `policy_risk`: `high` with a high-risk phrase; `medium` when UTILITY is asked for copy that does not
 *   qualify, or with 3+ promotional phrases; else `low`.
 * - `validation_status`: `rejected` at high risk; `needs_changes` when the asked category does not fit;
 *   else `passed`.
 */
export function validateTemplateCopy(text: string, category?: Category): TemplateValidation {
  const flagged = phrasesIn(PROMOTIONAL_PHRASES, text);
  const cues = phrasesIn(TRANSACTIONAL_CUES, text);
  const risky = phrasesIn(HIGH_RISK_PHRASES, text);
  const qualifies = cues.length > 0 && flagged.length === 0;
  const misfiled = category === 'UTILITY' && !qualifies;
  const policy_risk =
    risky.length > 0 ? 'high' : misfiled || flagged.length >= PROMOTIONAL_MEDIUM_RISK ? 'medium' : 'low';
  return {
    validation_status: policy_risk === 'high' ? 'rejected' : misfiled ? 'needs_changes' : 'passed',
    proposed_category: qualifies ? 'UTILITY' : 'MARKETING',
    policy_risk,
    utility_coaching: {
      flagged_phrases: [...flagged, ...risky],
      qualifies_as_utility: qualifies,
      // The saving is reachable when the copy has a transactional purpose: as is, or without the flagged phrases.
      estimated_saving_pct: cues.length > 0 ? UTILITY_SAVING_PCT : 0,
    },
  };
}
