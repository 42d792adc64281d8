#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { CliError, EXIT_CODES } from './cli-error.js';
import { registerCommands } from './commands/index.js';
import { err } from './output.js';
import { CLI_VERSION } from './version.js';

async function buildProgram(argv: readonly string[]): Promise<Command> {
  const program = new Command('convo-kit')
    .description(
      'The convo-kit command line: receive, inspect and replay webhook deliveries, fire signed test events, run the local emulator.',
    )
    .version(CLI_VERSION, '-v, --version')
    .showHelpAfterError(err.c.dim('(add --help for usage)'))
    .configureOutput({ outputError: (text, write) => write(err.c.red(text)) })
    // Subcommands made with .command() inherit this, so every usage error comes back here as an exception.
    .exitOverride();
  await registerCommands(program, argv);
  return program;
}

/** Prints an error the way every command does and returns its exit code. */
function report(error: unknown): number {
  if (error instanceof CommanderError) {
    // Commander printed the message already (or help/version, which exit 0).
    return error.exitCode === 0 ? EXIT_CODES.OK : EXIT_CODES.USAGE;
  }
  if (error instanceof CliError) {
    err.line(err.c.red(`error: ${error.message}`));
    if (error.hint) err.line(error.hint);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  err.line(err.c.red(`error: ${message}`));
  if (process.env.DEBUG && error instanceof Error && error.stack) err.line(err.c.dim(error.stack));
  return EXIT_CODES.FAILED;
}

// `convo-kit openapi | head` closes the pipe early; that is the reader's choice, not a failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(EXIT_CODES.OK);
  throw error;
});

try {
  await (await buildProgram(process.argv)).parseAsync(process.argv);
} catch (error) {
  process.exitCode = report(error);
}
