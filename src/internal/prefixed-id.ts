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

/** Makes the random part of an id: `bytes` of randomness as base64url (4 characters per 3 bytes). */
export type IdSource = (prefix: string, bytes: number) => string;

let override: IdSource | undefined;

/**
 * Makes every id of this process with `source` instead of the CSPRNG until the returned function is called:
 * for a recording that must come out the same on every run (scripts/record-openapi-examples.ts). Never in a
 * running service or emulator, whose ids, keys and secrets must be unguessable.
 */
export function drawIdsFrom(source: IdSource): () => void {
  const previous = override;
  override = source;
  return () => {
    override = previous;
  };
}

/**
 * The service's id format: a prefix, `_`, then url-safe random characters (4 per 3 bytes), e.g.
 * `dlv_` + 24 characters from 18 bytes (docs/webhook-deliveries.md), `svc_live_` + 32 from 24 (docs/keys-and-limits.md).
 */
export function prefixedId(prefix: string, bytes = 18): string {
  return `${prefix}_${override ? override(prefix, bytes) : randomBase64url(bytes)}`;
}
