import type { ClientTelemetry } from '../telemetry/client-telemetry.js';
import { InvalidOptionError } from '../errors.js';
import { type ClientLogger, silentLogger } from './client-logger.js';
import { normalizeBaseUrl } from '../internal/base-url.js';

export interface ClientOptions {
  /** `svc_live_…` or `svc_test_…`. Sent as `Authorization: Bearer …`; never logged. */
  apiKey: string;
  /**
   * The service address: the bare origin, `…/v1` or `…/api/v1`.
   * @default 'http://localhost:4010' (the emulator's default address)
   */
  baseUrl?: string;
  /**
   * Allow plain `http:` to a host other than this machine (e.g. an emulator reached by a docker-compose
   * service name). Without it such a `baseUrl` is refused: the key would cross the network unencrypted.
   * @default false
   */
  allowInsecureHttp?: boolean;
  /** Per attempt, from sending to the last byte of the answer. @default 30000 */
  timeoutMs?: number;
  /**
   * The whole call: every attempt and every wait between them. When it runs out (or a wait would end past
   * it) the call throws TimeoutError with `overall: true`, naming the attempts made. Without it a call may
   * take `maxRetries + 1` attempts of `timeoutMs` plus the waits.
   * @default none
   */
  totalTimeoutMs?: number;
  /** Further attempts after the first, where a retry is safe. @default 2 */
  maxRetries?: number;
  /** First backoff ceiling; doubles per retry (full jitter draws below it). @default 500 */
  backoffBaseMs?: number;
  /** Largest backoff ceiling. @default 8000 */
  backoffMaxMs?: number;
  /** A 429 whose Retry-After is longer than this is not waited for: RateLimitError at once. @default 60000 */
  maxRetryAfterMs?: number;
  /** Largest answer body read; a larger one is a ResponseValidationError. @default 16777216 (16 MiB) */
  maxResponseBytes?: number;
  /** Largest number of pages one `for await` walk fetches before it stops (with a warning). @default 10000 */
  maxPages?: number;
  /**
   * Parse every 2xx body with the route's response schema (unknown fields are kept) and throw
   * ResponseValidationError on mismatch. Turn off only to tolerate a service ahead of this kit.
   * @default true
   */
  validateResponses?: boolean;
  /** A fetch-standard function, e.g. to add a proxy or instrumentation. @default globalThis.fetch */
  fetch?: typeof globalThis.fetch;
  /** pino-compatible; nothing is logged without one. @default a silent logger */
  logger?: ClientLogger;
  /** @default 'convo-kit-client/0.1.0' */
  userAgent?: string;
}

/** Per-call options, the second argument of every method. */
export interface RequestOptions {
  signal?: AbortSignal;
  /** @default the client's `timeoutMs` */
  timeoutMs?: number;
  /** @default the client's `totalTimeoutMs` */
  totalTimeoutMs?: number;
  /** @default the client's `maxRetries` */
  maxRetries?: number;
  /** Extra request headers (e.g. `X-Request-ID` for correlation), as a record or a `Headers`. */
  headers?: Record<string, string> | Headers;
}

export type ClientSettings = Required<Omit<ClientOptions, 'apiKey' | 'baseUrl' | 'totalTimeoutMs'>> & {
  apiKey: string;
  baseUrl: string;
  totalTimeoutMs: number | undefined;
  /** HTTP client spans and metrics, when the application installed `@opentelemetry/api`. */
  telemetry?: ClientTelemetry;
};

/** Eleven attempts of the longest `timeoutMs`: above it the bound would never be the one that ends a call. */
const TOTAL_TIMEOUT_MAX_MS = 11 * 600_000;

const KEY_PREFIXES = ['svc_live_', 'svc_test_'] as const;
const DEFAULTS = {
  baseUrl: 'http://localhost:4010',
  timeoutMs: 30_000,
  maxRetries: 2,
  backoffBaseMs: 500,
  backoffMaxMs: 8_000,
  maxRetryAfterMs: 60_000,
  maxResponseBytes: 16 * 1024 * 1024,
  maxPages: 10_000,
  validateResponses: true,
  allowInsecureHttp: false,
  userAgent: 'convo-kit-client/0.1.0',
} as const;

/** Throws naming the option and the value: ``Expected `timeoutMs` to be an integer from 1 to 600000, got `0` ``. */
export function checkInteger(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new InvalidOptionError(
      `Expected \`${name}\` to be an integer from ${min} to ${max}, got \`${String(value)}\``,
    );
  }
  return value;
}

export function isTestKey(apiKey: string): boolean {
  return apiKey.startsWith('svc_test_');
}

export function resolveSettings(options: ClientOptions): ClientSettings {
  const { apiKey } = options;
  // The value is never quoted: an error message must not carry a key.
  if (typeof apiKey !== 'string' || apiKey.length === 0 || /[^\x21-\x7e]/.test(apiKey)) {
    throw new InvalidOptionError(
      'Expected `apiKey` to be a non-empty string of visible ASCII characters (svc_live_… or svc_test_…)',
    );
  }
  const s = {
    ...DEFAULTS,
    fetch: globalThis.fetch,
    logger: silentLogger,
    totalTimeoutMs: undefined as number | undefined,
    ...stripUndefined(options),
    apiKey,
  };
  checkInteger('timeoutMs', s.timeoutMs, 1, 600_000);
  if (s.totalTimeoutMs !== undefined) checkInteger('totalTimeoutMs', s.totalTimeoutMs, 1, TOTAL_TIMEOUT_MAX_MS);
  checkInteger('maxRetries', s.maxRetries, 0, 10);
  checkInteger('backoffBaseMs', s.backoffBaseMs, 0, 60_000);
  checkInteger('backoffMaxMs', s.backoffMaxMs, 0, 600_000);
  checkInteger('maxRetryAfterMs', s.maxRetryAfterMs, 0, 3_600_000);
  checkInteger('maxResponseBytes', s.maxResponseBytes, 1, 1024 ** 3);
  checkInteger('maxPages', s.maxPages, 1, 1_000_000);
  if (typeof s.fetch !== 'function')
    throw new InvalidOptionError('Expected `fetch` to be a function (Node 20+ has a global fetch)');
  if (!KEY_PREFIXES.some((p) => apiKey.startsWith(p))) {
    s.logger.warn({}, 'apiKey does not start with svc_live_ or svc_test_; the service will likely answer 401');
  }
  return { ...s, baseUrl: normalizeBaseUrl(s.baseUrl, s.allowInsecureHttp === true) };
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/; // RFC 9110 token
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/; // no CR, LF or NUL: they would split the request

/**
 * Checks a call's options and gives them back with `headers` as a plain record: a `Headers` object has no
 * own entries, so `Object.entries` read it as empty and its headers were dropped without a word.
 */
export function checkRequestOptions(options: RequestOptions): RequestOptions & { headers: Record<string, string> } {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidOptionError(`Expected the call options to be an object, got ${typeof options}`);
  }
  if (options.timeoutMs !== undefined) checkInteger('timeoutMs', options.timeoutMs, 1, 600_000);
  if (options.totalTimeoutMs !== undefined)
    checkInteger('totalTimeoutMs', options.totalTimeoutMs, 1, TOTAL_TIMEOUT_MAX_MS);
  if (options.maxRetries !== undefined) checkInteger('maxRetries', options.maxRetries, 0, 10);
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) {
    throw new InvalidOptionError('Expected `signal` to be an AbortSignal (controller.signal, not the controller)');
  }
  const headers: Record<string, string> =
    options.headers instanceof Headers ? Object.fromEntries(options.headers) : { ...options.headers };
  for (const [name, value] of Object.entries(headers)) {
    // The value is not quoted: a header may carry a credential.
    if (!HEADER_NAME.test(name) || typeof value !== 'string' || !HEADER_VALUE.test(value)) {
      throw new InvalidOptionError(
        `Expected \`headers\` entry \`${name.slice(0, 100)}\` to be a valid header name with a string value without line breaks`,
      );
    }
  }
  return { ...options, headers };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
