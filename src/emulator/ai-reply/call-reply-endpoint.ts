import type { LookupFunction } from 'node:net';
import { CustomReplyAnswer } from '../../api/schemas/custom-reply.js';
import type { AddressPolicy } from '../../internal/address-policy.js';
import { strictUtf8 } from '../../internal/strict-utf8.js';
import { guardedPost, type GuardedAnswer } from '../../net/guarded-post.js';
import { signingHeaders } from '../../signature/index.js';
import { USER_AGENT } from '../dispatch/post-delivery.js';
import { issueText } from '../../internal/issue-text.js';

/** A public address, or loopback: the emulator alone reaches a local reply endpoint (docs/custom-reply.md). */
export const REPLY_ENDPOINT_POLICY: AddressPolicy = 'loopback-or-public';

/** A `{ reply }` of 4096 characters is under 20 KB of JSON; a larger answer is not read to the end. */
export const REPLY_ANSWER_MAX_BYTES = 64 * 1024;

export type ReplyCallOutcome = { ok: true; reply: string } | { ok: false; status: number | null; reason: string };

const failure = (reason: string, status: number | null = null): ReplyCallOutcome => ({ ok: false, status, reason });

function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError'))
    return `no answer within timeout_ms (${timeoutMs} ms)`;
  const code = error && typeof error === 'object' && 'code' in error ? `${String(error.code)}: ` : '';
  return code + (error instanceof Error ? error.message : String(error)).slice(0, 200);
}

function parseAnswer(status: number, bytes: Buffer): ReplyCallOutcome {
  let text: string;
  try {
    // Lenient decoding would send the customer U+FFFD for every byte that is not UTF-8 (JSON is UTF-8).
    text = strictUtf8(bytes);
  } catch {
    return failure('the answer is not UTF-8', status);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return failure('the answer is not JSON', status);
  }
  const answer = CustomReplyAnswer.safeParse(json);
  if (!answer.success) {
    return failure(
      `the answer is not { reply } of 1 to 4096 characters (${issueText(answer.error.issues[0]!, 'the body')})`,
      status,
    );
  }
  return { ok: true, reply: answer.data.reply };
}

/**
 * One signed POST of a custom reply request (signed like a webhook, with the provider's secret), the
 * whole exchange within `timeoutMs`, through the same guard as webhook deliveries (`guardedPost`): a
 * public address, or loopback (the emulator alone reaches a local endpoint), checked before connecting
 * and as a name resolves; redirects are not followed; the answer is read up to 64 KiB. Never throws.
 */
export async function callReplyEndpoint(input: {
  url: string;
  secret: string;
  body: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** The resolver under the address check. @default dns.lookup */
  resolve?: LookupFunction;
}): Promise<ReplyCallOutcome> {
  const headers = { ...signingHeaders({ secret: input.secret, body: input.body }), 'user-agent': USER_AGENT };
  let answer: GuardedAnswer;
  try {
    answer = await guardedPost({
      url: input.url,
      headers,
      body: input.body,
      policy: REPLY_ENDPOINT_POLICY,
      timeoutMs: input.timeoutMs,
      signal: input.signal,
      resolve: input.resolve,
      maxAnswerBytes: REPLY_ANSWER_MAX_BYTES,
    });
  } catch (error) {
    return failure(describe(error, input.timeoutMs));
  }
  const { status, body } = answer;
  if (status < 200 || status >= 300) return failure(`the endpoint answered ${status}`, status);
  if (body === null) return failure(`the answer is over ${REPLY_ANSWER_MAX_BYTES} bytes`, status);
  return parseAnswer(status, body);
}
