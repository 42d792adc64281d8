import type { Logger } from 'pino';
import type { CustomReplyRequest } from '../api/schemas/custom-reply.js';
import { DEFAULT_TOLERANCE_SECONDS, type SecretSource } from '../signature/index.js';
import { secretsOption, type CheckedSecrets } from '../signature/secrets-option.js';
import { bodyBoundsOption, type BodyBounds } from '../internal/body-bounds-option.js';
import { integerOption } from '../internal/integer-option.js';
import { InvalidOptionError } from '../errors.js';

export interface ReplyContext {
  /** Aborted when `timeoutMs` passes: the answer is already a 504, so stop the work (fetch, LLM call). */
  signal: AbortSignal;
  log: Logger;
  /** The signed `X-Service-Timestamp`, Unix seconds. */
  timestamp: number;
}

/** A reply, `{ reply }`, or null/undefined to answer nothing (the service then hands the conversation to a person). */
export type ReplyResult = string | { reply: string } | null | undefined;

export type ReplyFunction = (request: CustomReplyRequest, context: ReplyContext) => ReplyResult | Promise<ReplyResult>;

export interface ReplyEndpointOptions {
  /** The provider's signing secret (the `secret` of its PUT). Pass this or `secrets`. */
  secret?: string;
  /** Several secrets during a rotation (old and new both verify), or an async provider. */
  secrets?: SecretSource;
  /** Writes the reply to one request; see {@link ReplyResult}. */
  reply: ReplyFunction;
  /**
   * The reply function has this long; past it the endpoint answers 504 `REPLY_TIMEOUT` and aborts
   * `context.signal`. Keep it under the provider's `timeout_ms` (the service's default is 5000), so
   * the service hears a clear answer rather than its own timeout. @default 4000
   */
  timeoutMs?: number;
  /** How far the signed timestamp may be from our clock, either way (the replay window). @default 300 */
  toleranceSeconds?: number;
  /** Larger bodies get 413 without being read to the end. @default 1048576 (1 MiB) */
  maxBodyBytes?: number;
  /**
   * Body bytes held in memory across all requests at once; a request that would pass it gets 503 with
   * `Retry-After: 1` before its body is read. At least `maxBodyBytes`. @default 33554432 (32 MiB), or `maxBodyBytes` if larger
   */
  maxInFlightBytes?: number;
  /**
   * A body must be in within this long after its headers, else 408 and the connection closes: the service
   * waits at most 10 s (the longest `timeout_ms`), and a body that trickles in must not hold its share of
   * `maxInFlightBytes`. @default 10000
   */
  bodyTimeoutMs?: number;
  /** A pino logger; secrets and signatures are redacted. @default pino at LOG_LEVEL or 'info' */
  logger?: Logger;
  /** Milliseconds since the epoch; injectable for tests. @default Date.now */
  now?: () => number;
}

/** The custom reply endpoint's `timeout_ms` is 1,000 to 10,000 ms; the endpoint answers within its own bound. */
const DEFAULT_TIMEOUT_MS = 4000;
const MAX_TIMEOUT_MS = 10_000;

export interface ResolvedReplyOptions extends BodyBounds {
  secrets: CheckedSecrets;
  reply: ReplyFunction;
  timeoutMs: number;
  toleranceSeconds: number;
  now: () => number;
}

export function resolveReplyOptions(options: ReplyEndpointOptions): ResolvedReplyOptions {
  if (options === null || typeof options !== 'object')
    throw new InvalidOptionError('createReplyEndpoint() needs an options object with `secret` and `reply`');
  const secrets = secretsOption(options, "the provider's signing secret");
  if (typeof options.reply !== 'function')
    throw new InvalidOptionError(
      `Expected \`reply\` to be a function (request, context) => reply, got ${typeof options.reply}`,
    );
  return {
    secrets,
    reply: options.reply,
    timeoutMs: integerOption('timeoutMs', options.timeoutMs, DEFAULT_TIMEOUT_MS, { max: MAX_TIMEOUT_MS }),
    toleranceSeconds: integerOption('toleranceSeconds', options.toleranceSeconds, DEFAULT_TOLERANCE_SECONDS, {
      min: 0,
    }),
    ...bodyBoundsOption(options, MAX_TIMEOUT_MS),
    now: options.now ?? Date.now,
  };
}
