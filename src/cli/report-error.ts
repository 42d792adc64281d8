import { CommanderError } from 'commander';
import { CliError, EXIT_CODES } from './cli-error.js';
import { err } from './output.js';

/** The stack only when asked for (DEBUG set): a CLI user gets one line and a hint, not Node's trace. */
function printStackIfDebug(error: unknown): void {
  if (process.env.DEBUG && error instanceof Error && error.stack) err.line(err.c.dim(error.stack));
}

/** Prints an error the way every command does and returns its exit code. */
export function reportError(error: unknown): number {
  if (error instanceof CommanderError) {
    // Commander printed the message already (or help/version, which exit 0).
    return error.exitCode === 0 ? EXIT_CODES.OK : EXIT_CODES.USAGE;
  }
  if (error instanceof CliError) {
    err.line(err.c.red(`error: ${error.message}`));
    if (error.hint) err.line(error.hint);
    printStackIfDebug(error.cause);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  err.line(err.c.red(`error: ${message}`));
  printStackIfDebug(error);
  return EXIT_CODES.FAILED;
}
