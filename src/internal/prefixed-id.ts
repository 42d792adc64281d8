import { randomBytes } from 'node:crypto';

/**
 * The service's id format: a prefix, `_`, then url-safe random characters (4 per 3 bytes), e.g.
 * `dlv_` + 24 characters from 18 bytes (docs/webhook-deliveries.md), `svc_live_` + 32 from 24 (docs/keys-and-limits.md).
 */
export function prefixedId(prefix: string, bytes = 18): string {
  return `${prefix}_${randomBytes(bytes).toString('base64url')}`;
}
