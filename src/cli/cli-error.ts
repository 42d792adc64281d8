import { ConvoKitError } from '../errors.js';

/** `USAGE`: the command line itself is wrong; `NOT_FOUND`: a file, database or delivery is missing; `FAILED`: the work ran and failed. */
export type CliErrorCode = 'USAGE' | 'NOT_FOUND' | 'FAILED';

/** Exit codes scripts can branch on: 0 ok, 1 the work failed, 2 bad usage, 3 something named does not exist. */
export const EXIT_CODES: Record<CliErrorCode | 'OK', number> = { OK: 0, FAILED: 1, USAGE: 2, NOT_FOUND: 3 };

/** An error the CLI reports as one line plus a hint on how to fix it, with its exit code. */
export class CliError extends ConvoKitError<CliErrorCode> {
  readonly hint: string | undefined;

  constructor(code: CliErrorCode, message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(code, message, { cause: options.cause });
    this.hint = options.hint;
  }

  get exitCode(): number {
    return EXIT_CODES[this.code];
  }
}
