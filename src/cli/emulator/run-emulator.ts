import { pino } from 'pino';
import { LOG_REDACT_PATHS, startEmulator } from '../../emulator/index.js';
import { MissingPackageError } from '../../internal/optional-package.js';
import { CliError } from '../cli-error.js';
import { requireDbDirectory } from '../db-directory.js';
import type { EmulatorFlags } from './emulator-flags.js';
import { err, out } from '../output.js';
import { interrupted } from '../shutdown.js';

export async function runEmulator(flags: EmulatorFlags): Promise<void> {
  if (flags.db !== undefined) requireDbDirectory(flags.db);
  // Logs go to stderr so stdout carries only the start-up lines (or the JSON line) scripts read.
  const logger = pino(
    {
      name: 'convo-kit-emulator',
      level: process.env.LOG_LEVEL ?? 'warn',
      redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' },
    },
    pino.destination(2),
  );
  let emulator;
  try {
    emulator = await startEmulator({
      port: flags.port,
      host: flags.host,
      dbPath: flags.db,
      adminKey: flags.adminKey,
      testKey: flags.testKey,
      plan: flags.plan,
      retryDelaysSeconds: flags.retryDelays,
      seed: flags.seed,
      allowPublicWebhookHosts: flags.allowPublicWebhooks === true,
      chaos: flags.chaos,
      logger,
      output: flags.json ? { write: () => undefined } : process.stdout,
    });
  } catch (cause) {
    if (cause instanceof MissingPackageError) throw cause; // one line: what to install
    const error = cause as NodeJS.ErrnoException;
    if (error.code === 'EADDRINUSE') {
      throw new CliError('FAILED', `Port ${flags.port} on ${flags.host} is already in use.`, {
        hint: 'Pick another with --port (0 picks a free one).',
      });
    }
    throw new CliError('FAILED', `The emulator could not start: ${error.message}`, { cause });
  }
  if (flags.json)
    out.line(
      JSON.stringify({
        url: emulator.url,
        base_url: `${emulator.url}/v1`,
        // Only keys it generated: one it was given is already known, and would end up in CI logs.
        ...(flags.adminKey === undefined && { admin_key: emulator.adminKey }),
        ...(flags.testKey === undefined && { test_key: emulator.testKey }),
      }),
    );
  err.line(err.c.dim('Ctrl-C to stop'));
  await interrupted();
  await emulator.close();
  err.line('emulator stopped');
}
