import { ConvoKitError } from '../errors.js';
import { ERROR_STATUS, type ErrorCode } from '../api/error-codes.js';

/**
 * Thrown by an emulator handler to answer with the error envelope; the status comes from the code
 * (docs/errors.md), so a handler cannot pair a code with the wrong status.
 */
export class ApiFailure extends ConvoKitError<ErrorCode> {
  readonly status: number;
  readonly details: Record<string, unknown>[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options?: { details?: Record<string, unknown>[]; headers?: Record<string, string> },
  ) {
    super(code, message);
    this.status = ERROR_STATUS[code];
    this.details = options?.details;
    this.headers = options?.headers;
  }
}

export function notFound(kind: string, id: string): ApiFailure {
  return new ApiFailure('NOT_FOUND', `No ${kind} with id ${JSON.stringify(id)}`);
}
