import type { VerifiedToolResult } from '../../api/schemas/custom-reply.js';

/**
 * The actions a reply may claim only when the service's verified tool context shows it took them
 * (docs/custom-reply.md): one table, so a new kind of claim is one row. Each pattern finds a first-person
 * past-tense claim ("I have refunded", "we've cancelled") or a passive one ("your order has been refunded");
 * a plain statement of policy ("refunds take 5 days") claims nothing.
 */
export const ACTION_CLAIMS: readonly { action: string; verbs: string }[] = [
  {
    action: 'refund',
    // "your refund has been processed": the refund is the subject, so the verb alone says it was done.
    verbs:
      'refunded|(?:issued|processed|approved) (?:a|your|the)(?: full| partial)? refund|credited|(?<=\\brefund\\s+(?:has|was|is)\\s+(?:been\\s+)?)(?:issued|processed|approved)',
  },
  { action: 'cancel', verbs: 'cancell?ed|called off' },
  { action: 'ship', verbs: 'shipped|dispatched|sent out' },
  { action: 'order', verbs: 'placed (?:a|an|your|the) (?:new )?order|re-?ordered' },
  { action: 'book', verbs: 'booked|reserved|re-?scheduled|scheduled' },
  {
    action: 'update_account',
    verbs:
      'reset your password|(?:changed|updated|deleted|closed) your (?:address|email|password|account|plan|subscription|details)',
  },
  { action: 'discount', verbs: 'applied (?:a|an|the|your) (?:discount|coupon|voucher|credit)' },
  {
    action: 'handoff',
    verbs:
      'escalated|(?:passed|forwarded|handed|transferred) (?:this|it|you|your \\w+)(?: over| on)? to|(?:created|opened|raised) (?:a|an) (?:ticket|case)',
  },
];

const SUBJECT = String.raw`\b(?:i|we)(?:'ve|’ve| have| had| just| already| now| also)*\s+`;
/** "I've passed this on and refunded your order": a second verb of the same sentence keeps the subject. */
const CHAINED = String.raw`(?:[^.!?]{0,80}?\b(?:and|then|also)\s+)?`;
const PASSIVE = String.raw`\b(?:it|this|your \w+|the \w+)\s+(?:has|have|was|were|is)\s+(?:been\s+|now\s+|just\s+)*`;

const PATTERNS = ACTION_CLAIMS.map(({ action, verbs }) => ({
  action,
  pattern: new RegExp(`(?:${SUBJECT}${CHAINED}|${PASSIVE})(?:${verbs})\\b`, 'i'),
}));

/** The actions a reply claims to have taken, in table order. */
export function claimedActions(reply: string): string[] {
  return PATTERNS.filter(({ pattern }) => pattern.test(reply)).map(({ action }) => action);
}

/** The first action the reply claims that no verified tool result shows, or null when every claim holds. */
export function unverifiedClaim(reply: string, toolContext: readonly VerifiedToolResult[]): string | null {
  const done = new Set(toolContext.flatMap((result) => result.actions));
  return claimedActions(reply).find((action) => !done.has(action)) ?? null;
}
