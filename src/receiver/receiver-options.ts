import type { Logger } from 'pino';
import { DEFAULT_TOLERANCE_SECONDS, DELIVERY_DEADLINE_MS, type SecretSource } from '../signature/index.js';
import { secretsOption, type CheckedSecrets } from '../signature/secrets-option.js';
import { bodyBoundsOption, type BodyBounds } from '../internal/body-bounds-option.js';
import { integerOption } from '../internal/integer-option.js';
import type { DeliveryStore, Durability } from '../store/index.js';
import { type BackoffOptions } from './backoff.js';
import type { HeaderInput } from '../internal/header-value.js';
import type { ReceiverResponse } from './receiver-response.js';
import { InvalidOptionError } from '../errors.js';
import type { Client } from '../client/create-client.js';
import { isTableClient } from './step-client.js';
import type { HealthThresholds } from './receiver-health.js';

export interface ReceiverOptions {
  /** The endpoint's `whsec_…` secret. Pass this or `secrets`. */
  secret?: string;
  /** Several secrets during a rotation (old and new both verify), or an async provider. */
  secrets?: SecretSource;
  /** Where deliveries are kept. Pass this (e.g. a PostgreSQL store) or `dbPath`. */
  store?: DeliveryStore;
  /** A SQLite file for the built-in store; the receiver opens it and closes it on close(). */
  dbPath?: string;
  /** Durability of the store opened from `dbPath` (see createSqliteStore). @default 'full' */
  durability?: Durability;
  /**
   * Run the store opened from `dbPath` on a thread of its own (createSqliteStore's `thread`): no SQLite
   * work, and no wait for another process's lock, on the event loop (README "Durability"). @default false
   */
  storeThread?: boolean;
  /**
   * How far the signed timestamp may be from our clock, either way (the replay window). Done rows must outlive
   * twice this: the store opened from `dbPath` keeps them that long at least, and a `store` of yours whose
   * `pruneDoneAfterMs` is shorter is refused. @default 300
   */
  toleranceSeconds?: number;
  /** Larger bodies get 413 without being read to the end. @default 1048576 (1 MiB) */
  maxBodyBytes?: number;
  /**
   * Body bytes held in memory across all requests at once (being read, verified and stored). A request
   * that would pass it gets 503 with `Retry-After: 1` before its body is read, and the service retries.
   * At least `maxBodyBytes`. A body another middleware already read (express.raw()) is not counted.
   * @default 33554432 (32 MiB), or `maxBodyBytes` if larger
   */
  maxInFlightBytes?: number;
  /**
   * A body must be in within this long after its headers, else 408 and the connection is closed: the
   * service waits 8 s for an answer, so a body still arriving after that is no delivery it waits on, and
   * one that trickles in must not hold its share of `maxInFlightBytes` for minutes. @default 8000
   */
  bodyTimeoutMs?: number;
  /** Handlers running at once; the worker claims only as many rows as this leaves room for. @default 10 */
  concurrency?: number;
  /** Attempts before a delivery is dead (and `onError` hears of it). @default 5 */
  maxAttempts?: number;
  /** Delay before retry n: exponential with jitter, or your own function of the attempt number. @default { baseMs: 2000, factor: 4, maxMs: 600000 } */
  backoff?: BackoffOptions | ((attempt: number) => number);
  /** One attempt (all matching handlers) longer than this fails with HANDLER_TIMEOUT. @default 30000, or 7000 with processBeforeResponse */
  handlerTimeoutMs?: number;
  /**
   * How long a claim holds unless renewed; it is renewed every quarter of this while handlers run. When a
   * process dies, its deliveries go to another worker after at most this plus one poll. @default 8000
   */
  leaseMs?: number;
  /** How often the worker looks for due retries, expired leases and rows other processes stored. @default 1000 */
  pollIntervalMs?: number;
  /** A pino logger; the receiver adds redaction of secrets and signatures. @default pino at LOG_LEVEL or 'info' */
  logger?: Logger;
  /**
   * For hosts that freeze after the response (serverless): run the handlers before answering, under the
   * service's 8 s deadline. A failure answers 500 so the service retries, and that retry is processed.
   * @default false
   */
  processBeforeResponse?: boolean;
  /**
   * Hears every answer the receiver gives, through any adapter or `handle`, with the request's headers
   * (refusals made before the body was read included): for a log line or a metric. It runs once the
   * answer is written and must not throw.
   */
  onResponse?: (response: ReceiverResponse, headers: HeaderInput) => void;
  /**
   * A client made by `createClient`, given to every handler as `ctx.client`, bound to its event: each call
   * is a journaled step and sends carry an Idempotency-Key derived from the event (README "Effects, exactly
   * once"). Without it, touching `ctx.client` throws CLIENT_NOT_CONFIGURED.
   */
  client?: Client;
  /** When `receiver.health()` says `degraded` or `failing` (and /readyz stays 200 either way). */
  health?: HealthThresholds;
  /** Milliseconds since the epoch; injectable for tests. @default Date.now */
  now?: () => number;
}

/** In processBeforeResponse mode handlers must finish well before the service abandons the delivery. */
const MAX_BEFORE_RESPONSE_TIMEOUT_MS = DELIVERY_DEADLINE_MS - 500;

export interface ResolvedOptions extends BodyBounds {
  secrets: CheckedSecrets;
  toleranceSeconds: number;
  concurrency: number;
  maxAttempts: number;
  handlerTimeoutMs: number;
  /** Short, and renewed while handlers run: a live worker keeps its row, a dead one's rows come back soon. */
  leaseMs: number;
  pollIntervalMs: number;
  processBeforeResponse: boolean;
  onResponse?: (response: ReceiverResponse, headers: HeaderInput) => void;
  now: () => number;
}

export function resolveOptions(options: ReceiverOptions): ResolvedOptions {
  if (options === null || typeof options !== 'object')
    throw new InvalidOptionError('createReceiver() needs an options object with `secret` and `dbPath` (or `store`)');
  const secrets = secretsOption(options, "the endpoint's whsec_… secret");
  if ((options.store === undefined) === (options.dbPath === undefined)) {
    throw new InvalidOptionError('Pass exactly one of `dbPath` (a SQLite file) or `store` (a DeliveryStore)');
  }
  // They say how to open `dbPath`; beside a store of your own they would be silently ignored.
  for (const name of ['durability', 'storeThread'] as const)
    if (options.store !== undefined && options[name] !== undefined)
      throw new InvalidOptionError(
        `\`${name}\` applies to the store opened from \`dbPath\`; give it to your own store instead`,
      );
  if (options.storeThread !== undefined && typeof options.storeThread !== 'boolean')
    throw new InvalidOptionError(`Expected \`storeThread\` to be a boolean, got \`${String(options.storeThread)}\``);
  const processBeforeResponse = options.processBeforeResponse === true;
  const handlerTimeoutMs = integerOption(
    'handlerTimeoutMs',
    options.handlerTimeoutMs,
    processBeforeResponse ? 7000 : 30_000,
  );
  if (processBeforeResponse && handlerTimeoutMs > MAX_BEFORE_RESPONSE_TIMEOUT_MS) {
    throw new InvalidOptionError(
      `With processBeforeResponse, \`handlerTimeoutMs\` must leave room under the service's 8 s deadline: at most ${MAX_BEFORE_RESPONSE_TIMEOUT_MS}, got \`${handlerTimeoutMs}\``,
    );
  }
  if (options.client !== undefined && !isTableClient(options.client))
    throw new InvalidOptionError('Expected `client` to be a client made by createClient() from convo-kit/client');
  if (options.onResponse !== undefined && typeof options.onResponse !== 'function')
    throw new InvalidOptionError(
      `Expected \`onResponse\` to be a function (response, headers) => void, got ${typeof options.onResponse}`,
    );
  return {
    secrets,
    toleranceSeconds: integerOption('toleranceSeconds', options.toleranceSeconds, DEFAULT_TOLERANCE_SECONDS, {
      min: 0,
    }),
    ...bodyBoundsOption(options, DELIVERY_DEADLINE_MS),
    concurrency: integerOption('concurrency', options.concurrency, 10),
    maxAttempts: integerOption('maxAttempts', options.maxAttempts, 5),
    handlerTimeoutMs,
    leaseMs: integerOption('leaseMs', options.leaseMs, 8000, { min: 1000 }),
    pollIntervalMs: integerOption('pollIntervalMs', options.pollIntervalMs, 1000),
    processBeforeResponse,
    onResponse: options.onResponse,
    now: options.now ?? Date.now,
  };
}
