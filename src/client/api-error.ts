import { ConvoKitError } from '../errors.js';
import { type ErrorCode } from '../api/error-codes.js';

/** A code of docs/errors.md, `UNKNOWN` for an answer without the error envelope, or a code added later. */
export type ApiErrorCode = ErrorCode | 'UNKNOWN' | (string & {});

export interface ApiErrorInit {
  status: number;
  code: ApiErrorCode;
  message: string;
  docUrl: string | null;
  requestId: string | null;
  details: readonly Record<string, unknown>[];
  /** Response headers, names lower-cased. */
  headers: Record<string, string>;
  /** The answer's body as received (parsed JSON or text), e.g. the health report of a 503 from GET /v1/status. */
  body: unknown;
}

const MESSAGE_CHARS = 1_000; // a message, not a page: a server's answer of megabytes would flood every log line

function bounded(message: string): string {
  return message.length <= MESSAGE_CHARS
    ? message
    : `${message.slice(0, MESSAGE_CHARS)}… (${message.length} characters; the whole answer is in \`body\`)`;
}

/** The service answered with a failure (never returned as data). Subclasses mark the cases callers handle differently. */
export class ApiError extends ConvoKitError<ApiErrorCode> {
  readonly status: number;
  readonly docUrl: string | null;
  readonly requestId: string | null;
  readonly details: readonly Record<string, unknown>[];
  readonly headers: Record<string, string>;
  readonly body: unknown;

  constructor(init: ApiErrorInit) {
    super(
      init.code,
      `${init.status} ${init.code}: ${bounded(init.message)}${init.requestId ? ` (request ${init.requestId})` : ''}`,
    );
    this.status = init.status;
    this.docUrl = init.docUrl;
    this.requestId = init.requestId;
    this.details = init.details;
    this.headers = init.headers;
    this.body = init.body;
  }
}

/** 401: the key is missing, malformed, unknown or revoked. */
export class AuthenticationError extends ApiError {}

/** 403: test key on a live route, missing scope, or a write on a read-only plan (see `code`). */
export class PermissionError extends ApiError {}

/** 404: unknown id or route. */
export class NotFoundError extends ApiError {}

/** 409: branch on `code` (`VERSION_CONFLICT`, `IDEMPOTENCY_KEY_REUSED`, `ACCOUNT_MISMATCH`, …). */
export class ConflictError extends ApiError {}

/** 400 (and 422 `VALIDATION_FAILED`): the service refused the input; `fields` lists `{ path, message }`. */
export class ValidationFailedError extends ApiError {
  readonly fields: readonly { path: string; message: string }[];

  constructor(init: ApiErrorInit) {
    super(init);
    this.fields = init.details.map((d) => ({ path: String(d.path ?? ''), message: String(d.message ?? '') }));
  }
}

/** 429: over the per-minute limit; `retryAfter` in whole seconds when `Retry-After` was readable, else `null`. */
export class RateLimitError extends ApiError {
  readonly retryAfter: number | null;

  constructor(init: ApiErrorInit, retryAfter: number | null) {
    super(init);
    this.retryAfter = retryAfter;
  }
}

/** 422 `SEND_FAILED`: the provider rejected a live send; `providerErrorCode` e.g. `131026`. */
export class SendFailedError extends ApiError {
  readonly providerErrorCode: string | null;

  constructor(init: ApiErrorInit) {
    super(init);
    const code = init.details.find((d) => d.provider_error_code !== undefined)?.provider_error_code;
    this.providerErrorCode = code === undefined || code === null ? null : String(code);
  }
}

/** 5xx: the service failed; safe retries already happened. */
export class ServerError extends ApiError {}

/**
 * Narrows an unknown error to an ApiError, optionally of one code:
 * `if (isApiError(e, 'VERSION_CONFLICT')) …`.
 */
export function isApiError<C extends ApiErrorCode>(error: unknown, code?: C): error is ApiError & { code: C } {
  return error instanceof ApiError && (code === undefined || error.code === code);
}
