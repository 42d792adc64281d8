import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ApiFailure } from '../../emulator/api-failure.js';
import { MAX_STATE_BYTES } from '../../emulator/saved-state/state-document.js';
import { checkStateKey, STATE_KEY_ENV } from '../../emulator/saved-state/state-key.js';
import { issueText } from '../../internal/issue-text.js';
import { CliError } from '../cli-error.js';

/** The state key from the environment (never a flag: a flag shows in `ps`), checked; undefined when unset. */
export function stateKeyFromEnv(): string | undefined {
  const key = process.env[STATE_KEY_ENV];
  if (key === undefined || key === '') return undefined;
  try {
    return checkStateKey(key, STATE_KEY_ENV);
  } catch (error) {
    throw new CliError('USAGE', (error as Error).message, { hint: `Set ${STATE_KEY_ENV} to a longer passphrase.` });
  }
}

/** Reads `--import <file>` as JSON: a missing, oversized or unreadable file is one line naming it. */
export function readStateFile(file: string): unknown {
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    throw new CliError('NOT_FOUND', `No file ${file} for --import.`, {
      hint: 'Name a file or directory written by --export-on-exit, or a file of GET /_emulator/state.',
    });
  }
  if (size > MAX_STATE_BYTES) {
    throw new CliError('USAGE', `Cannot import ${file}: it is ${size} bytes, more than ${MAX_STATE_BYTES}.`);
  }
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch (error) {
    throw new CliError('USAGE', `Cannot import ${file}: not JSON (${(error as Error).message}).`);
  }
}

/**
 * An import's refusal as one line naming the file and the first field (the issue formatter of every message);
 * `locate` finds the file a field was read from (the directory form: state-directory.ts).
 */
export function importRefusal(
  file: string,
  error: unknown,
  locate: (path: string) => { file: string; path: string } = (path) => ({ file, path }),
): unknown {
  if (!(error instanceof ApiFailure)) return error;
  const first = error.details?.[0] as { path?: unknown; message?: unknown } | undefined;
  if (typeof first?.path !== 'string' || typeof first.message !== 'string') {
    return new CliError('USAGE', `Cannot import ${file}: ${error.message}.`, { cause: error });
  }
  const at = locate(first.path);
  const field = issueText({ path: at.path === '' ? [] : at.path.split('.'), message: first.message }, 'the document');
  return new CliError('USAGE', `Cannot import ${at.file}: ${field}.`, { cause: error });
}

/**
 * Writes `text` to `file` so that a reader never sees half of it: a temporary file beside it, flushed to disk,
 * then renamed over it (a rename within one directory is atomic). Readable by its owner only: it holds key
 * hashes and sealed secrets.
 */
export function writeFileAtomically(file: string, text: string): void {
  const temporary = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  try {
    writeFlushed(temporary, text);
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** Writes a new owner-only file and flushes it to disk before returning. */
export function writeFlushed(file: string, text: string): void {
  const fd = openSync(file, 'w', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
