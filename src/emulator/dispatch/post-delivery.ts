import { readFileSync } from 'node:fs';
import type { LookupFunction } from 'node:net';
import { type AddressPolicy } from '../../internal/address-policy.js';
import { AddressNotAllowedError } from '../../net/guarded-lookup.js';
import { guardedPost } from '../../net/guarded-post.js';
import {
  DELIVERY_DEADLINE_MS,
  sign,
  SIGNATURE_HEADER,
  signedHeaders,
  TIMESTAMP_HEADER,
} from '../../signature/index.js';

function packageVersion(): string {
  try {
    // src/emulator/dispatch -> package root, and the same from dist/emulator/dispatch.
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      version?: unknown;
    };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export const USER_AGENT = `convo-kit-emulator/${packageVersion()}`;

export interface PostOutcome {
  ok: boolean;
  statusCode: number | null;
  /** Why a delivery failed without a status (timeout, refused connection); null otherwise. */
  error: string | null;
}

/**
 * One signed POST of a delivery. The timestamp is the real wall-clock second, not the emulator's
 * (which may have been advanced): receivers check it against their own clock with a 300 s tolerance.
 * The address is checked before and at connect time (guardedPost): by default only loopback receivers.
 */
export async function postDelivery(input: {
  url: string;
  secret: string;
  /** Further secrets that sign too, during a rotation: the header carries one `sha256=` value per secret. */
  moreSecrets?: readonly string[];
  deliveryId: string;
  event: string;
  body: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  policy: AddressPolicy;
  resolve?: LookupFunction;
}): Promise<PostOutcome> {
  const signed = signedHeaders({
    secret: input.secret,
    body: input.body,
    deliveryId: input.deliveryId,
    event: input.event,
  });
  const timestamp = signed[TIMESTAMP_HEADER];
  // Decisions §1: several `sha256=` values separated by `,`; one match is enough for the receiver.
  for (const secret of input.moreSecrets ?? [])
    signed[SIGNATURE_HEADER] += `,${sign({ secret, timestamp, body: input.body })}`;
  const headers = { ...signed, 'user-agent': USER_AGENT };
  const timeoutMs = input.timeoutMs ?? DELIVERY_DEADLINE_MS;
  try {
    // A redirect is not a 2xx: it is retried like any other failure, never followed.
    const { status } = await guardedPost({
      url: input.url,
      headers,
      body: input.body,
      policy: input.policy,
      timeoutMs,
      signal: input.signal,
      resolve: input.resolve,
    });
    return { ok: status >= 200 && status < 300, statusCode: status, error: null };
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    const reason = name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : describeNetworkError(error);
    return { ok: false, statusCode: null, error: reason };
  }
}

function describeNetworkError(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  if (cause instanceof AddressNotAllowedError) return `${cause.code}: ${cause.message}`.slice(0, 300);
  const code = cause && typeof cause === 'object' && 'code' in cause ? String(cause.code) : '';
  const message = cause instanceof Error ? cause.message : String(cause);
  return (code ? `${code}: ` : '') + message.slice(0, 200);
}
