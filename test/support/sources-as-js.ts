import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * src/ as JavaScript, for the CLI processes the tests start (test/cli/run-cli.ts): each file transpiled by
 * esbuild (what tsx runs the sources with) to the same place under `.test-dist/` that `npm run build` gives it
 * under dist/, so every path a module finds from its own (`../../package.json`, the templates, a worker's
 * entry, the console's browser modules) is the one it finds from src/. Node then starts the CLI in about a
 * third of the CPU time it takes through the tsx loader (0.35 s against 1.0 s for `--help`), which the suite
 * pays a few hundred times.
 */
export const SOURCES_AS_JS = fileURLToPath(new URL('../../.test-dist/', import.meta.url));
const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
/**
 * The pages' modules, which server code imports too: compiled as src/console/browser-modules.ts compiles them for
 * a page when it runs from src/ (esbuild, ES2022), which then serves these files as they are.
 */
const BROWSER = 'console/browser';
const STAMP = '.sources';

/** The files under `dir` whose names pass `keep`. */
function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path, keep);
    return keep(entry.name) ? [path] : [];
  });
}

const sources = (dir: string) => filesUnder(dir, (name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
/**
 * Data that modules read from beside themselves (src/api/openapi/recorded-examples.json), copied as
 * tsconfig.build.json's `include` puts it in dist/. A browser tsconfig is not data.
 */
const dataFiles = (dir: string) => filesUnder(dir, (name) => name.endsWith('.json') && name !== 'tsconfig.json');

/**
 * vitest's global setup: transpiles src/ when a file changed since the last run (a second or two), else keeps
 * what is there. Built beside and then moved into place, so that no process reads a half-written file.
 */
export default async function setup(): Promise<void> {
  const entries = sources(SRC);
  const data = dataFiles(SRC);
  const stamp = createHash('sha256');
  for (const file of [...entries, ...data]) {
    const { mtimeMs, size } = statSync(file);
    stamp.update(`${file} ${mtimeMs} ${size}\n`);
  }
  const digest = stamp.digest('hex');
  const out = SOURCES_AS_JS.replace(/\/$/, '');
  if (existsSync(join(out, STAMP)) && readFileSync(join(out, STAMP), 'utf8') === digest) return;

  const staging = `${out}.${process.pid}`;
  const { build } = await import('esbuild');
  const inBrowser = (file: string) => relative(SRC, file).startsWith(`${BROWSER}/`);
  const common = { outdir: staging, outbase: SRC, format: 'esm', logLevel: 'warning' } as const;
  await Promise.all([
    build({ ...common, entryPoints: entries.filter((file) => !inBrowser(file)), platform: 'node', target: 'node20' }),
    build({ ...common, entryPoints: entries.filter(inBrowser), target: 'es2022' }),
  ]);
  for (const file of data) {
    const target = join(staging, relative(SRC, file));
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(file, target);
  }
  writeFileSync(join(staging, STAMP), digest);
  const old = `${out}.old.${process.pid}`;
  if (existsSync(out)) renameSync(out, old);
  renameSync(staging, out);
  rmSync(old, { recursive: true, force: true });
}
