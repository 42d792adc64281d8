import { type BodyProblem } from './read-body.js';
import { parseRetryAfterSeconds } from './retry-after.js';

/** What the transport hands back for one answered call. */
export interface RawResponse {
  status: number;
  headers: Headers;
  /** The body parsed as JSON, the raw text when it is not JSON, `undefined` when empty or too large. */
  body: unknown;
  /** Set when the body is not JSON or was too large to read. */
  bodyProblem: BodyProblem | null;
  /** How many attempts the call took (1 = no retry). */
  attempts: number;
}

/** Response metadata of a call, reachable with `.withResponse()`. */
export interface ResponseMeta {
  status: number;
  /** Response headers, names lower-cased. */
  headers: Record<string, string>;
  /** `X-Request-ID`: quote it to support. */
  requestId: string | null;
  /** `X-RateLimit-*` (docs/keys-and-limits.md); `reset` is Unix seconds. `null` where the service sent none (GET /v1/status). */
  rateLimit: { limit: number; remaining: number; reset: number } | null;
  /** True when the service replayed a stored result for this Idempotency-Key instead of acting again. */
  idempotentReplayed: boolean;
  /** The Idempotency-Key sent (generated when the caller gave none), or `null` on routes without one. */
  idempotencyKey: string | null;
  /** `ETag` (tickets: `"<version>"`), to pass back as `ifMatch`. */
  etag: string | null;
  attempts: number;
}

export function headerRecord(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

function intHeader(headers: Headers, name: string): number | null {
  const value = headers.get(name);
  return value !== null && /^\d+$/.test(value.trim()) ? Number(value) : null;
}

export function responseMeta(raw: RawResponse, idempotencyKey: string | null): ResponseMeta {
  const { headers } = raw;
  const limit = intHeader(headers, 'x-ratelimit-limit');
  const remaining = intHeader(headers, 'x-ratelimit-remaining');
  const reset = intHeader(headers, 'x-ratelimit-reset');
  return {
    status: raw.status,
    headers: headerRecord(headers),
    requestId: headers.get('x-request-id'),
    rateLimit: limit !== null && remaining !== null && reset !== null ? { limit, remaining, reset } : null,
    idempotentReplayed: headers.get('idempotent-replayed')?.trim().toLowerCase() === 'true',
    idempotencyKey,
    etag: headers.get('etag'),
    attempts: raw.attempts,
  };
}

export function retryAfterOf(headers: Headers): number | null {
  return parseRetryAfterSeconds(headers.get('retry-after'));
}
