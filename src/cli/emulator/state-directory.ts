import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { MAX_STATE_BYTES, type StateDocument } from '../../emulator/saved-state/state-document.js';
import { CliError } from '../cli-error.js';
import { recoverStateDirectory, sideDirectory } from './state-directory-sides.js';
import { writeFlushed } from './state-file.js';

// The directory form of a saved state (docs/emulator.md, "Saving and loading state"): the same document as
// GET /_emulator/state, cut into one pretty-printed file per collection and list, so `git diff` between two
// exports shows what changed where. Reading puts the document back together; checking it is PUT's (one rule).

/** The manifest: format, format_version, clock, secrets, delivery_attempts_total and the files it lists. */
export const STATE_MANIFEST = 'state.json';
/** The document's lists other than `collections`, each a file of its own (`deliveries.json`, …). */
const LISTS = ['api_key_hashes', 'deliveries', 'delivery_attempts', 'request_counts'] as const;
const COLLECTION_FILE = /^collections\/([a-z][a-z0-9_]{0,63})\.json$/;
/** More files than any workspace has collections: a manifest listing more is not one this code wrote. */
const MAX_STATE_FILES = 256;

/**
 * The rule for file or directory: a path that exists is what it is; one that does not is a directory when it
 * ends with `/` or has no `.json` extension, a file otherwise.
 */
export function isStateDirectory(path: string): boolean {
  if (existsSync(path)) return statSync(path).isDirectory();
  return path.endsWith('/') || !path.toLowerCase().endsWith('.json');
}

const text = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** `document` as the files of the directory form, by relative path, in the order the manifest lists them. */
function stateFiles(document: StateDocument): Map<string, string> {
  const { collections, ...rest } = document;
  const files = new Map<string, string>();
  for (const list of LISTS) files.set(`${list}.json`, text(rest[list]));
  for (const kind of Object.keys(collections).sort()) files.set(`collections/${kind}.json`, text(collections[kind]));
  const manifest: Record<string, unknown> = { ...rest, files: [...files.keys()] };
  for (const list of LISTS) delete manifest[list];
  files.set(STATE_MANIFEST, text(manifest));
  return files;
}

/**
 * Refuses to replace a directory this code did not write (one that holds files but no manifest), so
 * `--export-on-exit .` cannot empty the working directory. Called at start, and again before the swap.
 */
export function requireReplaceableDirectory(dir: string): void {
  if (!existsSync(dir)) return;
  if (!statSync(dir).isDirectory()) {
    throw new CliError('USAGE', `${dir} is a file, not a state directory.`);
  }
  const names = readdirSync(dir);
  if (names.length > 0 && !names.includes(STATE_MANIFEST)) {
    throw new CliError('USAGE', `${dir} holds files and no ${STATE_MANIFEST}: not a state directory to replace.`, {
      hint: 'Name a new or empty directory, or one --export-on-exit wrote.',
    });
  }
}

function flushDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `document` as a state directory so that a crash never leaves a half one to import: every file goes
 * into a temporary sibling directory, flushed, which is then renamed into place (the old one moved aside
 * first and removed after). A write killed in between is mended by the next write or import
 * (recoverStateDirectory). Owner-only: the files hold key hashes and sealed secrets.
 */
export function writeStateDirectory(dir: string, document: StateDocument): void {
  const target = dir.replace(/\/+$/, '') || dir;
  recoverStateDirectory(target, STATE_MANIFEST);
  requireReplaceableDirectory(target);
  const files = stateFiles(document);
  const bytes = [...files.values()].reduce((n, t) => n + Buffer.byteLength(t), 0);
  if (bytes > MAX_STATE_BYTES) {
    throw new CliError('FAILED', `The state is ${bytes} bytes, more than the ${MAX_STATE_BYTES} an import takes.`, {
      hint: 'Keep a workspace this large with --db.',
    });
  }
  const temporary = sideDirectory(target, process.pid, 'tmp');
  const previous = sideDirectory(target, process.pid, 'old');
  rmSync(temporary, { recursive: true, force: true });
  try {
    mkdirSync(join(temporary, 'collections'), { recursive: true, mode: 0o700 });
    for (const [name, content] of files) writeFlushed(join(temporary, name), content);
    flushDirectory(join(temporary, 'collections'));
    flushDirectory(temporary);
    const replacing = existsSync(target);
    if (replacing) renameSync(target, previous);
    renameSync(temporary, target);
    flushDirectory(dirname(target));
    if (replacing) rmSync(previous, { recursive: true, force: true });
  } catch (error) {
    rmSync(temporary, { recursive: true, force: true });
    throw error;
  }
}

/** Where a field of the put-together document was read from: its file and its path inside that file. */
export interface StateLocation {
  file: string;
  path: string;
}

/** A document path (`collections.messages.3.status`) located in the directory form's files. */
export function locateInDirectory(dir: string, path: string): StateLocation {
  const [head, kind, ...rest] = path.split('.');
  if (head === 'collections' && kind !== undefined) {
    return { file: join(dir, 'collections', `${kind}.json`), path: rest.join('.') };
  }
  if ((LISTS as readonly string[]).includes(head ?? '')) {
    return { file: join(dir, `${head}.json`), path: [kind, ...rest].filter((p) => p !== undefined).join('.') };
  }
  return { file: join(dir, STATE_MANIFEST), path };
}

function readJson(file: string, budget: { left: number }): unknown {
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    throw new CliError('NOT_FOUND', `No file ${file} for --import.`, {
      hint: `${STATE_MANIFEST} lists it: the directory is incomplete.`,
    });
  }
  budget.left -= size;
  if (budget.left < 0) {
    throw new CliError('USAGE', `Cannot import ${file}: the state's files are more than ${MAX_STATE_BYTES} bytes.`);
  }
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch (error) {
    throw new CliError('USAGE', `Cannot import ${file}: not JSON (${(error as Error).message}).`);
  }
}

/**
 * Reads a state directory back into one document (unchecked: the import checks it as PUT /_emulator/state
 * does). Only the layout is checked here: the manifest's `files`, each a name this layout uses, each present.
 */
export function readStateDirectory(dir: string): unknown {
  recoverStateDirectory(dir.replace(/\/+$/, '') || dir, STATE_MANIFEST);
  const budget = { left: MAX_STATE_BYTES };
  const manifestFile = join(dir, STATE_MANIFEST);
  if (!existsSync(manifestFile)) {
    throw new CliError('NOT_FOUND', `No ${STATE_MANIFEST} in ${dir} for --import.`, {
      hint: 'Name a directory written by --export-on-exit <dir>.',
    });
  }
  const manifest = readJson(manifestFile, budget);
  const refuse = (field: string, message: string) =>
    new CliError('USAGE', `Cannot import ${manifestFile}: ${field}: ${message}.`);
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) {
    throw new CliError('USAGE', `Cannot import ${manifestFile}: expected an object.`);
  }
  const { files, ...document } = manifest as Record<string, unknown>;
  if (!Array.isArray(files) || files.length > MAX_STATE_FILES) {
    throw refuse('files', `expected the list of the state's files (at most ${MAX_STATE_FILES})`);
  }
  const collections: Record<string, unknown> = {};
  const listed = new Set<string>();
  files.forEach((name, i) => {
    const kind = typeof name === 'string' ? COLLECTION_FILE.exec(name)?.[1] : undefined;
    const list = LISTS.find((l) => name === `${l}.json`);
    if (typeof name !== 'string' || (kind === undefined && list === undefined) || listed.has(name)) {
      throw refuse(
        `files.${i}`,
        `expected collections/<name>.json or one of ${LISTS.map((l) => `${l}.json`).join(', ')}, once each`,
      );
    }
    listed.add(name);
    const value = readJson(join(dir, name), budget);
    if (kind !== undefined) collections[kind] = value;
    else document[list!] = value;
  });
  for (const list of LISTS) {
    if (!listed.has(`${list}.json`)) throw refuse('files', `${list}.json is not listed`);
  }
  return { ...document, collections };
}
