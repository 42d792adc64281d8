import { ConvoKitError } from '../errors.js';

/** One failing field: `path` as the caller wrote it (`media.url`, `buttons[2]`, `ifMatch`). */
export interface FieldIssue {
  path: string;
  message: string;
}

/** `['media', 'url']` -> `media.url`, `['buttons', 2]` -> `buttons[2]`, after an optional first segment. */
export function issuePath(path: readonly PropertyKey[], first = ''): string {
  return path.reduce<string>(
    (acc, seg) => (typeof seg === 'number' ? `${acc}[${seg}]` : acc ? `${acc}.${String(seg)}` : String(seg)),
    first,
  );
}

const LISTED_ISSUES = 10; // a page of 100 bad items fails in hundreds of places; `issues` keeps them all

function listIssues(issues: readonly FieldIssue[]): string {
  const listed = issues
    .slice(0, LISTED_ISSUES)
    .map((i) => `${i.path || '(input)'}: ${i.message}`)
    .join('; ');
  return issues.length > LISTED_ISSUES ? `${listed}; and ${issues.length - LISTED_ISSUES} more` : listed;
}

/** The input of a call fails the contract's schemas; nothing was sent. */
export class InvalidInputError extends ConvoKitError<'INVALID_INPUT'> {
  readonly endpoint: string;
  readonly issues: readonly FieldIssue[];

  constructor(endpoint: string, issues: readonly FieldIssue[]) {
    super('INVALID_INPUT', `Invalid input for ${endpoint}, nothing was sent: ${listIssues(issues)}`);
    this.endpoint = endpoint;
    this.issues = issues;
  }
}

/**
 * A 2xx answer that is not what the contract declares (not JSON, too large, or off-schema). Thrown rather
 * than returned so that a value typed as `Ticket` is a ticket: a mismatch surfaces here, next to its
 * cause and its request id, instead of as an `undefined` far away in the caller's code.
 */
export class ResponseValidationError extends ConvoKitError<'INVALID_RESPONSE' | 'RESPONSE_TOO_LARGE'> {
  readonly endpoint: string;
  readonly status: number;
  readonly requestId: string | null;
  readonly issues: readonly FieldIssue[];

  constructor(
    code: 'INVALID_RESPONSE' | 'RESPONSE_TOO_LARGE',
    endpoint: string,
    detail: { status: number; requestId: string | null; issues?: readonly FieldIssue[]; message?: string },
  ) {
    const issues = detail.issues ?? [];
    const what = detail.message ?? listIssues(issues);
    super(
      code,
      `Response of ${endpoint} (HTTP ${detail.status}, request ${detail.requestId ?? 'without id'}) does not match the contract: ${what}`,
    );
    this.endpoint = endpoint;
    this.status = detail.status;
    this.requestId = detail.requestId;
    this.issues = issues;
  }
}

/**
 * The transport failed. `CONNECTION_REFUSED`: no byte reached the server (safe to retry anything).
 * `CONNECTION_LOST`: the request may have reached the server, so a POST without Idempotency-Key may have acted.
 */
export class ConnectionError extends ConvoKitError<'CONNECTION_REFUSED' | 'CONNECTION_LOST'> {
  readonly endpoint: string;
  readonly attempts: number;
  /** The status of an answer whose body was cut off (its headers arrived), else `null`. */
  readonly status: number | null;
  /** That answer's `X-Request-ID`, to quote to support. */
  readonly requestId: string | null;

  constructor(
    code: 'CONNECTION_REFUSED' | 'CONNECTION_LOST',
    endpoint: string,
    attempts: number,
    cause: unknown,
    cutOff: CutOffAnswer | null = null,
  ) {
    const reason = cause instanceof Error ? describeCause(cause) : String(cause);
    const sent =
      code === 'CONNECTION_REFUSED'
        ? 'the request was not sent'
        : cutOff
          ? `the server ${answered(cutOff)}, then the body was cut off`
          : 'the request may have reached the server';
    super(code, `${endpoint} failed after ${attempts} attempt(s): ${reason} (${sent})`, { cause });
    this.endpoint = endpoint;
    this.attempts = attempts;
    this.status = cutOff?.status ?? null;
    this.requestId = cutOff?.requestId ?? null;
  }
}

/** An answer whose headers arrived and whose body did not. */
export interface CutOffAnswer {
  status: number;
  requestId: string | null;
}

const answered = ({ status, requestId }: CutOffAnswer) =>
  `answered HTTP ${status} (request ${requestId ?? 'without id'})`;

/**
 * No complete answer within `timeoutMs` (per attempt), or the call's `totalTimeoutMs` ran out (`overall`);
 * the request may have reached the server.
 */
export class TimeoutError extends ConvoKitError<'TIMEOUT'> {
  readonly endpoint: string;
  readonly attempts: number;
  /** The bound that ran out: the attempt's `timeoutMs`, or the call's `totalTimeoutMs` when `overall`. */
  readonly timeoutMs: number;
  /** True when the call's overall deadline (`totalTimeoutMs`) ended it, during an attempt or before the next. */
  readonly overall: boolean;

  /** The status of an answer whose headers came and whose body did not complete in time, else `null`. */
  readonly status: number | null;
  /** That answer's `X-Request-ID`. */
  readonly requestId: string | null;

  constructor(
    endpoint: string,
    attempts: number,
    timeoutMs: number,
    cutOff: CutOffAnswer | null = null,
    overall: { lastOutcome?: string } | null = null,
  ) {
    const what = cutOff ? `${answered(cutOff)} but its body did not complete` : 'got no answer';
    super(
      'TIMEOUT',
      overall
        ? `${endpoint} reached its overall deadline of ${timeoutMs} ms (totalTimeoutMs) after ${attempts} attempt(s); the last attempt ${overall.lastOutcome ?? what}`
        : `${endpoint} ${what} within ${timeoutMs} ms (after ${attempts} attempt(s))`,
    );
    this.endpoint = endpoint;
    this.attempts = attempts;
    this.timeoutMs = timeoutMs;
    this.overall = overall !== null;
    this.status = cutOff?.status ?? null;
    this.requestId = cutOff?.requestId ?? null;
  }
}

/** undici hides the useful part (`ECONNREFUSED 127.0.0.1:4010`) in `cause`. */
function describeCause(err: Error): string {
  const inner = err.cause instanceof Error ? err.cause : undefined;
  return inner ? `${err.message}: ${inner.message}` : err.message;
}
