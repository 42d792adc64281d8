import { type ClientLogger } from './client-logger.js';
import { ConnectionError, type CutOffAnswer, TimeoutError } from './client-errors.js';
import { redactText } from '../internal/redact-text.js';
import { redactHeaders } from './redact.js';
import { BodyTooLarge, parseBody, readBody } from './read-body.js';
import { type RawResponse, retryAfterOf } from './response-meta.js';
import {
  backoffDelayMs,
  type BackoffSettings,
  failedBeforeSending,
  keyInUse,
  RETRYABLE_STATUSES,
} from './retry-policy.js';
import { sleep } from './sleep.js';

export interface WireRequest {
  /** The endpoint id, for logs and errors. */
  endpoint: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | FormData;
  /**
   * The service would not act twice if this request arrived twice: GET/PUT/PATCH/DELETE, or a POST of a
   * route whose contract takes an Idempotency-Key (a key sent elsewhere is ignored by the service). When
   * false, only failures that prove nothing was sent are retried.
   */
  replaySafe: boolean;
  /** The Idempotency-Key this call sends on every attempt, on the routes that take one. */
  idempotencyKey: string | null;
}

export interface TransportSettings extends BackoffSettings {
  /** Only to take it out of answers that are quoted in errors. */
  apiKey: string;
  fetch: typeof globalThis.fetch;
  logger: ClientLogger;
  timeoutMs: number;
  /** The whole call, attempts and waits between them; `undefined`: no bound beyond those of the attempts. */
  totalTimeoutMs: number | undefined;
  maxRetries: number;
  maxResponseBytes: number;
}

type Outcome =
  | { kind: 'answer'; raw: Omit<RawResponse, 'attempts'> }
  | { kind: 'timeout'; cutOff: CutOffAnswer | null }
  | { kind: 'network'; error: unknown; sent: boolean; cutOff: CutOffAnswer | null };

async function attempt(
  req: WireRequest,
  s: TransportSettings,
  signal: AbortSignal | undefined,
  timeoutMs: number,
): Promise<Outcome> {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal;
  let cutOff: CutOffAnswer | null = null;
  try {
    // `manual`: an API does not redirect; following one could carry the key elsewhere or turn a POST into a GET.
    const fetchFn = s.fetch; // called unbound: browsers' fetch throws "Illegal invocation" with another `this`
    const res = await fetchFn(req.url, {
      method: req.method,
      headers: req.headers,
      body: req.body,
      signal: combined,
      redirect: 'manual',
    });
    cutOff = { status: res.status, requestId: res.headers.get('x-request-id') };
    // A failure answer (or a body that is not JSON) is quoted in errors: a server or proxy echoing the
    // Authorization header must not put the key there. A 2xx JSON body is the caller's data, kept as sent.
    const failed = res.status < 200 || res.status > 299;
    const headers = failed ? redactHeaders(res.headers, s.apiKey) : res.headers;
    let text: string;
    try {
      text = await readBody(res, s.maxResponseBytes);
    } catch (error) {
      if (!(error instanceof BodyTooLarge)) throw error;
      const bodyProblem = { code: 'RESPONSE_TOO_LARGE', message: error.message } as const;
      return { kind: 'answer', raw: { status: res.status, headers, body: undefined, bodyProblem } };
    }
    // A failure's body is redacted before it is parsed (once); a 2xx body only when it is no JSON (then quoted).
    let raw = parseBody(failed ? redactText(text, [s.apiKey]) : text);
    if (!failed && raw.problem) raw = parseBody(redactText(text, [s.apiKey]));
    return { kind: 'answer', raw: { status: res.status, headers, body: raw.body, bodyProblem: raw.problem } };
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (timeout.signal.aborted) return { kind: 'timeout', cutOff };
    return { kind: 'network', error, sent: cutOff !== null || !failedBeforeSending(error), cutOff };
  } finally {
    clearTimeout(timer);
  }
}

/** How long to wait before retrying this answer, or `null` to hand it back as it is. */
function answerRetryDelay(
  raw: Omit<RawResponse, 'attempts'>,
  req: WireRequest,
  s: TransportSettings,
  retry: number,
): number | null {
  if (req.idempotencyKey !== null && keyInUse(raw.status, raw.body)) return backoffDelayMs(retry, s);
  if (!RETRYABLE_STATUSES.has(raw.status)) return null;
  // A 429 is refused before any handling, so even a non-idempotent POST did nothing; a 5xx from a gateway may have.
  if (raw.status !== 429 && !req.replaySafe) return null;
  // The same whole seconds a RateLimitError carries as `retryAfter`. Zero (a date already past) would send
  // the retry at once, in step with every other client told the same: the usual backoff spreads them.
  const retryAfter = retryAfterOf(raw.headers);
  if (retryAfter === null || retryAfter === 0) return backoffDelayMs(retry, s);
  const ms = retryAfter * 1000;
  return ms > s.maxRetryAfterMs ? null : ms;
}

/**
 * Sends one call: one attempt, then up to `maxRetries` more with backoff where a retry cannot make the
 * service act twice, all within `totalTimeoutMs` when set. Answers of any status come back as RawResponse;
 * transport failures and the overall deadline throw TimeoutError or ConnectionError; a caller's abort
 * throws the signal's reason.
 */
export async function send(req: WireRequest, s: TransportSettings, signal?: AbortSignal): Promise<RawResponse> {
  const route = new URL(req.url).pathname;
  const deadline = s.totalTimeoutMs === undefined ? Infinity : Date.now() + s.totalTimeoutMs;
  const overdue = (attempts: number, cutOff: CutOffAnswer | null, lastOutcome?: string) =>
    new TimeoutError(req.endpoint, attempts, s.totalTimeoutMs ?? 0, cutOff, { lastOutcome });
  for (let attempts = 1; ; attempts++) {
    s.logger.debug({ endpoint: req.endpoint, method: req.method, path: route, attempt: attempts }, 'convo-kit request');
    // The attempt gets what is left of the call when that is less than its own timeoutMs.
    const timeoutMs = Math.max(1, Math.min(s.timeoutMs, deadline - Date.now()));
    const outcome = await attempt(req, s, signal, timeoutMs);
    const mayRetry = attempts <= s.maxRetries;
    let delay: number | null;
    let reason: string;
    let requestId: string | null = null;
    if (outcome.kind === 'answer') {
      delay = mayRetry ? answerRetryDelay(outcome.raw, req, s, attempts - 1) : null;
      requestId = outcome.raw.headers.get('x-request-id');
      if (delay === null) {
        s.logger.debug(
          { endpoint: req.endpoint, status: outcome.raw.status, requestId, attempts },
          'convo-kit response',
        );
        return { ...outcome.raw, attempts };
      }
      reason = `HTTP ${outcome.raw.status}`;
    } else if (outcome.kind === 'timeout') {
      if (timeoutMs < s.timeoutMs) throw overdue(attempts, outcome.cutOff);
      if (!mayRetry || !req.replaySafe) throw new TimeoutError(req.endpoint, attempts, s.timeoutMs, outcome.cutOff);
      delay = backoffDelayMs(attempts - 1, s);
      reason = 'timeout';
    } else {
      if (!mayRetry || (outcome.sent && !req.replaySafe)) {
        throw new ConnectionError(
          outcome.sent ? 'CONNECTION_LOST' : 'CONNECTION_REFUSED',
          req.endpoint,
          attempts,
          outcome.error,
          outcome.cutOff,
        );
      }
      delay = backoffDelayMs(attempts - 1, s);
      reason = outcome.sent ? 'connection lost' : 'connection refused';
    }
    // Waiting past the deadline would only end in its TimeoutError later, and with no attempt to show for it.
    if (Date.now() + delay >= deadline) {
      throw overdue(attempts, null, `ended in ${reason}${requestId ? ` (request ${requestId})` : ''}`);
    }
    s.logger.warn(
      { endpoint: req.endpoint, attempt: attempts, reason, requestId, delayMs: delay },
      'convo-kit retrying',
    );
    await sleep(delay, signal);
  }
}
