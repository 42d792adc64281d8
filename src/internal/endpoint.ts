import type { Logger } from 'pino';
import type { BodyBudget } from './body-budget.js';
import type { HeaderInput } from './header-value.js';
import { errorAnswer, logRefusal, tooLarge, type HttpAnswer } from './http-answer.js';

/** A request as a caller with the bytes already in hand passes it (`receiver.handle`, `endpoint.handle`). */
export interface RequestInHand {
  headers: HeaderInput;
  rawBody: Uint8Array | string;
}

/** A request once its body is bytes: what an adapter read, or a caller's string encoded once. */
export interface RequestBytes {
  headers: HeaderInput;
  rawBody: Uint8Array;
}

export type Admission<A> = { ok: true; admitted: A } | { ok: false; answer: HttpAnswer };

/**
 * An endpoint in two halves, so an adapter refuses what the headers decide before reading a body:
 * `admit` checks the headers alone (synchronous, cheap); `handle` takes the body and what `admit` found.
 */
export interface Endpoint<A> {
  admit(headers: HeaderInput): Admission<A>;
  handle(input: RequestBytes, admitted: A): Promise<HttpAnswer>;
}

export interface AdapterOptions {
  maxBodyBytes: number;
  log: Logger;
  /** What a refusal is logged as ("delivery", "reply request"). */
  what: string;
  /** Bounds the body bytes held across requests; past it, 503 with Retry-After (see BodyBudget). */
  budget?: BodyBudget;
  /** A body not in within this long after its headers is refused (408) and its budget freed (ReadBodyOptions). */
  bodyTimeoutMs: number;
  /** Hears every answer once it is written, a refusal before the body included (`convo-kit listen` prints each). */
  onAnswer?: (answer: HttpAnswer, headers: HeaderInput) => void;
}

/** Seconds a sender is asked to wait when the body budget is full: bodies in flight clear within one. */
const BUSY_RETRY_AFTER_SECONDS = 1;

export const busy = () =>
  errorAnswer(
    503,
    'BODIES_IN_FLIGHT',
    'Too many request bodies are being received at once (maxInFlightBytes); retry shortly',
    { 'retry-after': String(BUSY_RETRY_AFTER_SECONDS) },
  );

/** Whether bytes already in hand pass the limit; a string is measured without being copied. */
export const overLimit = (rawBody: Uint8Array | string, maxBodyBytes: number) =>
  (typeof rawBody === 'string' ? Buffer.byteLength(rawBody) : rawBody.byteLength) > maxBodyBytes;

/**
 * Both halves at once, for bytes already in hand, in the adapters' order: the headers, then the size
 * (which no reader has bounded), then the body's half, given a string encoded to bytes here, once.
 */
export function handleWhole<A, R extends HttpAnswer>(
  endpoint: { admit(headers: HeaderInput): Admission<A>; handle(input: RequestBytes, admitted: A): Promise<R> },
  { headers, rawBody }: RequestInHand,
  { maxBodyBytes, log, what }: Pick<AdapterOptions, 'maxBodyBytes' | 'log' | 'what'>,
): Promise<R> {
  const admission = endpoint.admit(headers);
  // A refusal (from `admit`, or 413) is one of the endpoint's own answers (R), typed wider here.
  if (!admission.ok) return Promise.resolve(admission.answer as R);
  if (overLimit(rawBody, maxBodyBytes)) return Promise.resolve(logRefusal(log, tooLarge(maxBodyBytes), what) as R);
  const bytes = typeof rawBody === 'string' ? Buffer.from(rawBody) : rawBody;
  return endpoint.handle({ headers, rawBody: bytes }, admission.admitted);
}
