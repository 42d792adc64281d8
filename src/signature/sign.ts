import { createHmac } from 'node:crypto';
import { SIGNATURE_SCHEME } from './constants.js';

export type Body = string | Uint8Array;

/** HMAC-SHA256 of `<timestamp>.<rawBody>` keyed by the whole secret string (`whsec_` included), as raw bytes. */
export function signatureDigest(secret: string, timestamp: number | string, body: Body): Buffer {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
}

/**
 * Signs a raw body the way the service does (docs/webhook-deliveries.md).
 * @example sign({ secret: 'whsec_…', timestamp: 1763683200, body }) // 'sha256=0789d9…'
 */
export function sign(input: { secret: string; timestamp: number | string; body: Body }): string {
  return SIGNATURE_SCHEME + signatureDigest(input.secret, input.timestamp, input.body).toString('hex');
}
