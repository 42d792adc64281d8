/**
 * Statuses worth another attempt: rate limited, and the server-failure family a later attempt can pass
 * (500 included: the service keeps no 5xx result under an Idempotency-Key, decisions §5, so a send may
 * retry it with its key). 501 and 505 would fail the same way again.
 */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

/**
 * 409 IDEMPOTENCY_KEY_IN_USE: an earlier attempt of this very call (one that timed out or lost its
 * connection) is still running under the key (decisions §4), so a later attempt gets its stored result.
 */
export function keyInUse(status: number, body: unknown): boolean {
  if (status !== 409 || typeof body !== 'object' || body === null) return false;
  const error = (body as { error?: unknown }).error;
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'IDEMPOTENCY_KEY_IN_USE';
}

export interface BackoffSettings {
  backoffBaseMs: number;
  backoffMaxMs: number;
  maxRetryAfterMs: number;
}

/**
 * Exponential backoff with full jitter (a uniform draw in [0, min(cap, base * 2^retry)]), so that many
 * clients rejected together do not come back together.
 */
export function backoffDelayMs(retry: number, settings: BackoffSettings, random: () => number = Math.random): number {
  const ceiling = Math.min(settings.backoffMaxMs, settings.backoffBaseMs * 2 ** retry);
  return Math.floor(random() * ceiling);
}

/**
 * Error codes that mean the connection never carried the request (DNS failure, nothing listening,
 * unreachable, connect timeout). Anything else (reset, socket closed mid-way) may have reached the server.
 */
const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Walks `cause` chains and AggregateErrors (happy eyeballs tries several addresses) for error codes. */
function collectCodes(error: unknown, into: string[], depth = 0): string[] {
  if (depth > 5 || typeof error !== 'object' || error === null) return into;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string') into.push(code);
  if (Array.isArray(errors)) for (const e of errors.slice(0, 10)) collectCodes(e, into, depth + 1);
  collectCodes(cause, into, depth + 1);
  return into;
}

/** True only when the failure proves no byte of the request reached the server. */
export function failedBeforeSending(error: unknown): boolean {
  const codes = collectCodes(error, []).filter((c) => c.startsWith('E') || c.startsWith('UND_ERR'));
  return codes.length > 0 && codes.every((c) => NOT_SENT_CODES.has(c));
}
