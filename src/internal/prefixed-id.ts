import { randomBytes } from 'node:crypto';

/**
 * The service's id format: a prefix, `_`, then url-safe random characters (4 per 3 bytes), e.g.
 * `dlv_` + 24 characters from 18 bytes (decisions §1), `svc_live_` + 32 from 24 (decisions §5).
 */
export function prefixedId(prefix: string, bytes = 18): string {
  return `${prefix}_${randomBytes(bytes).toString('base64url')}`;
}
