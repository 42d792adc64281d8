/**
 * The provider sandbox (docs/emulator.md): like a payment sandbox's test cards, the recipient's phone
 * number decides what the provider does with a send.
 */
export type ProviderOutcome =
  | { kind: 'rejected'; errorCode: string; reason: string }
  | { kind: 'throttled'; errorCode: string; reason: string }
  | { kind: 'opted_out' }
  | { kind: 'delivered' };

/** Provider error 131026: the recipient cannot receive the message (not on the platform, old app, …). */
export const REJECTED_ERROR = {
  code: '131026',
  reason: 'Message undeliverable: the recipient cannot receive this message',
} as const;
/** Provider error 131049: accepted, then delivery throttled to protect the recipient's experience. */
export const THROTTLED_ERROR = {
  code: '131049',
  reason: 'Delivery throttled by the provider to maintain a healthy ecosystem',
} as const;

export function providerOutcome(recipientPhone: string | null): ProviderOutcome {
  if (recipientPhone?.endsWith('0001'))
    return { kind: 'rejected', errorCode: REJECTED_ERROR.code, reason: REJECTED_ERROR.reason };
  if (recipientPhone?.endsWith('0002'))
    return { kind: 'throttled', errorCode: THROTTLED_ERROR.code, reason: THROTTLED_ERROR.reason };
  if (recipientPhone?.endsWith('0003')) return { kind: 'opted_out' };
  return { kind: 'delivered' };
}
