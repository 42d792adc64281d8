import { randomFillSync } from 'node:crypto';

/**
 * Random bytes are drawn from the CSPRNG a pool at a time and each byte is handed out once, as Node's own
 * randomUUID() does: one randomBytes() call per id was 2.5% of the emulator's CPU under load (a request id
 * per request; issue 25, point 8).
 */
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let used = POOL_BYTES;

function randomBase64url(bytes: number): string {
  if (bytes > POOL_BYTES) return randomFillSync(Buffer.alloc(bytes)).toString('base64url');
  if (used + bytes > POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  used += bytes;
  return pool.toString('base64url', used - bytes, used);
}

/**
 * The service's id format: a prefix, `_`, then url-safe random characters (4 per 3 bytes), e.g.
 * `dlv_` + 24 characters from 18 bytes (docs/webhook-deliveries.md), `svc_live_` + 32 from 24 (docs/keys-and-limits.md).
 */
export function prefixedId(prefix: string, bytes = 18): string {
  return `${prefix}_${randomBase64url(bytes)}`;
}
