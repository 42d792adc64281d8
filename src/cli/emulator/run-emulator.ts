import { existsSync } from 'node:fs';
import { pino } from 'pino';
import { LOG_REDACT_PATHS, startEmulator } from '../../emulator/index.js';
import { MissingPackageError } from '../../internal/optional-package.js';
import { CliError } from '../cli-error.js';
import { requireDbDirectory } from '../db-directory.js';
import type { EmulatorFlags } from './emulator-flags.js';
import { err, out } from '../output.js';
import { interrupted } from '../shutdown.js';
import { ApiFailure } from '../../emulator/api-failure.js';
import { stateText } from '../../emulator/saved-state/export-state.js';
import { MIN_STATE_KEY_CHARS, STATE_KEY_ENV } from '../../emulator/saved-state/state-key.js';
import { importRefusal, readStateFile, stateKeyFromEnv, writeFileAtomically } from './state-file.js';
import {
  isStateDirectory,
  locateInDirectory,
  readStateDirectory,
  requireReplaceableDirectory,
  writeStateDirectory,
} from './state-directory.js';

/** Where --export-on-exit writes: its own file, or the --import file when it names none (as Firebase's does). */
function exportFileOf(flags: EmulatorFlags): string | undefined {
  if (flags.exportOnExit !== true) return flags.exportOnExit;
  if (flags.import === undefined) {
    throw new CliError('USAGE', '--export-on-exit without a file needs --import <file> to name one.', {
      hint: 'Write --export-on-exit ./state.json, or add --import ./state.json.',
    });
  }
  return flags.import;
}

/** Resolves on Ctrl-C, SIGTERM, or SIGHUP (the terminal closed): each a close to export the state on. */
function closed(): Promise<unknown> {
  return Promise.race([interrupted(), new Promise((resolve) => process.once('SIGHUP', resolve))]);
}

export async function runEmulator(flags: EmulatorFlags): Promise<void> {
  if (flags.db !== undefined) requireDbDirectory(flags.db);
  const exportFile = exportFileOf(flags);
  if (exportFile !== undefined) requireDbDirectory(exportFile, '--export-on-exit');
  // File or directory (docs/emulator.md): decided once, before anything starts, for both flags.
  const exportToDirectory = exportFile !== undefined && isStateDirectory(exportFile);
  if (exportToDirectory) requireReplaceableDirectory(exportFile);
  const stateKey = stateKeyFromEnv();
  const importDirectory = flags.import !== undefined && existsSync(flags.import) && isStateDirectory(flags.import);
  const document =
    flags.import === undefined
      ? undefined
      : importDirectory
        ? readStateDirectory(flags.import)
        : readStateFile(flags.import);
  // Logs go to stderr so stdout carries only the start-up lines (or the JSON line) scripts read.
  const logger = pino(
    {
      name: 'convo-kit-emulator',
      level: process.env.LOG_LEVEL ?? 'warn',
      redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' },
    },
    pino.destination(2),
  );
  // Listening before the start-up lines go out: a script that signals as soon as it reads them would
  // otherwise, now and then, kill the emulator by the signal's default action, with no export written.
  const stop = closed();
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
      state: document === undefined ? undefined : { document, stateKey },
      logger,
      output: flags.json ? { write: () => undefined } : process.stdout,
    });
  } catch (cause) {
    if (cause instanceof MissingPackageError) throw cause; // one line: what to install
    if (flags.import !== undefined && cause instanceof ApiFailure) {
      const dir = flags.import;
      throw importRefusal(dir, cause, importDirectory ? (path) => locateInDirectory(dir, path) : undefined);
    }
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
  if (flags.import !== undefined) err.line(`state imported from ${flags.import}`);
  if (exportFile !== undefined && stateKey === undefined) {
    err.line(
      err.c.yellow(
        `${STATE_KEY_ENV} is not set: ${exportFile} will hold no webhook or provider secret, so an import of it refuses any webhook endpoint or provider it holds. Set ${STATE_KEY_ENV} (${MIN_STATE_KEY_CHARS} characters or more) to keep them.`,
      ),
    );
  }
  err.line(err.c.dim('Ctrl-C to stop'));
  await stop;
  try {
    if (exportFile !== undefined) {
      const state = emulator.state.export({ stateKey });
      if (exportToDirectory) writeStateDirectory(exportFile, state);
      else writeFileAtomically(exportFile, stateText(state));
      err.line(`state written to ${exportFile}`);
    }
  } finally {
    await emulator.close();
  }
  err.line('emulator stopped');
}
