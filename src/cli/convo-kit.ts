#!/usr/bin/env node
import { Command } from 'commander';
import { EXIT_CODES } from './cli-error.js';
import { registerCommands } from './commands/index.js';
import { err } from './output.js';
import { reportError } from './report-error.js';
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

// `convo-kit openapi | head` closes the pipe early; that is the reader's choice, not a failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(EXIT_CODES.OK);
  throw error;
});

try {
  await (await buildProgram(process.argv)).parseAsync(process.argv);
} catch (error) {
  process.exitCode = reportError(error);
}
