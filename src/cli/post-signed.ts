import { z } from 'zod';
import { ErrorEnvelope } from '../api/error-codes.js';
import { DELIVERY_DEADLINE_MS, signedHeaders, type Body } from '../signature/index.js';
import { USER_AGENT } from './version.js';

/** Enough of an answer to show why it failed; the rest is not read. */
const MAX_RESPONSE_CHARS = 2_048;
/** How much of a refusal a forward or replay keeps as its reason (a table cell, a stored error). */
const MAX_REASON_CHARS = 200;

/**
 * The part of the error envelope every receiver and the service answer with (README, "What the receiver
 * answers"): the service's envelope (docs/errors.md) adds doc_url and request_id, a receiver's has just these.
 */
const Refusal = z.object({ error: ErrorEnvelope.shape.error.pick({ code: true, message: true }) });

export interface SignedPost {
  url: string;
  body: Body;
  secret: string;
  /** @default a fresh dlv_… id */
  deliveryId?: string;
  /** @default the body's `event` field */
  event?: string;
  /** @default 8000 */
  timeoutMs?: number;
}

export interface PostResult {
  status: number;
  ok: boolean;
  deliveryId: string;
  /** The start of the response body, for messages. */
  body: string;
}

/** Thrown when no HTTP answer came at all; the message names the URL and the network reason. */
export class PostFailedError extends Error {}

/** POSTs a body signed like a delivery from the service, with a fresh timestamp. */
export async function postSigned(post: SignedPost): Promise<PostResult> {
  const headers = signedHeaders({
    secret: post.secret,
    body: post.body,
    deliveryId: post.deliveryId,
    event: post.event,
  });
  const timeoutMs = post.timeoutMs ?? DELIVERY_DEADLINE_MS;
  let response: Response;
  try {
    response = await fetch(post.url, {
      method: 'POST',
      headers: { ...headers, 'user-agent': USER_AGENT },
      // A copy typed as ArrayBuffer-backed, which fetch's types require.
      body: typeof post.body === 'string' ? post.body : new Uint8Array(post.body),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
  } catch (error) {
    throw new PostFailedError(`POST ${post.url} got no answer: ${networkReason(error, timeoutMs)}`, { cause: error });
  }
  return {
    status: response.status,
    ok: response.ok,
    deliveryId: headers['x-service-delivery'],
    body: await readStart(response),
  };
}

function networkReason(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return `no answer within ${timeoutMs} ms`;
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error)
    return 'code' in cause && typeof cause.code === 'string' ? `${cause.code} (${cause.message})` : cause.message;
  return error instanceof Error ? error.message : String(error);
}

/** Reads at most MAX_RESPONSE_CHARS of the answer, so a huge or endless body cannot exhaust memory. */
async function readStart(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < MAX_RESPONSE_CHARS) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // A connection cut mid-body: what arrived is enough for a message.
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  return text.slice(0, MAX_RESPONSE_CHARS);
}

/** An answer's body for a person: `CODE: message` when it is the error envelope, not a line of raw JSON; else as it came. */
export function answerText(body: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body;
  }
  const refusal = Refusal.safeParse(parsed);
  return refusal.success ? `${refusal.data.error.code}: ${refusal.data.error.message}` : body;
}

/** Why a signed POST that got a non-2xx answer failed: `<url> answered <status>: <answer>`. */
export function refusalReason(url: string, result: PostResult): string {
  const text = answerText(result.body).slice(0, MAX_REASON_CHARS);
  return `${url} answered ${result.status}${text ? `: ${text}` : ''}`;
}
