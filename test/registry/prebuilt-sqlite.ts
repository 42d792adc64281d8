import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expectSuccess, REPO_ROOT, run } from '../support/run-command.js';

const BINARY = 'build/Release/better_sqlite3.node';

/** Where prebuild-install keeps a binary in npm's cache, asked of the prebuild-install that will run. */
const CACHED_PREBUILD_PATH = `
const { createRequire } = require('node:module');
const fromSqlite = createRequire(require.resolve('better-sqlite3/package.json'));
const util = fromSqlite('prebuild-install/util.js');
const pkg = fromSqlite('./package.json');
const options = { ...fromSqlite('prebuild-install/rc.js')(pkg), pkg };
process.stdout.write(util.cachedPrebuild(util.getDownloadUrl(options)));
`;

export interface SeededPrebuild {
  version: string;
  /** The checkout's own binary (its `npm ci` built it), or one compiled here because the versions differ. */
  from: 'checkout' | 'compiled once';
}

/**
 * better-sqlite3 installs with `prebuild-install || node-gyp rebuild`: it downloads a prebuilt binary from
 * GitHub, and where it cannot (this machine and CI reach the package registry only) it compiles SQLite from
 * source, minutes of both cores for each of this suite's three installs (the quick start, `npm create`'s copy
 * of the kit, the starter). prebuild-install looks in npm's cache first ("All prebuilt binaries are cached",
 * `${npm_config_cache}/_prebuilds`, its README), where a user's machine keeps the one it downloaded once:
 * this puts there the binary of the version the registry serves for `range`, so the installs compile nothing.
 * Everything else about them (the registry, the install script running) is as a user has it.
 */
export async function seedPrebuiltSqlite(options: {
  /** An empty folder to install better-sqlite3 in, without its install script, to learn its version. */
  dir: string;
  /** The npm cache the installs use (npm_config_cache in `env`). */
  cache: string;
  /** The installs' environment: the registry and the cache. */
  env: NodeJS.ProcessEnv;
  range: string;
  timeoutMs: number;
}): Promise<SeededPrebuild> {
  const { dir, env, timeoutMs } = options;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
  const npm = (args: string[], what: string) =>
    run('npm', ['--no-audit', '--no-fund', ...args], { cwd: dir, env, timeoutMs }).then((r) => expectSuccess(r, what));
  await npm(['install', '--ignore-scripts', `better-sqlite3@${options.range}`], 'npm install better-sqlite3');
  const installed = join(dir, 'node_modules', 'better-sqlite3');
  const { version } = readJson(join(installed, 'package.json'));

  const checkout = join(REPO_ROOT, 'node_modules', 'better-sqlite3');
  const sameAsCheckout =
    existsSync(join(checkout, BINARY)) && readJson(join(checkout, 'package.json')).version === version;
  // Another version than the checkout's: compile it once here, rather than once in every install.
  if (!sameAsCheckout) await npm(['rebuild', 'better-sqlite3'], `npm rebuild better-sqlite3@${version}`);

  const path = expectSuccess(
    await run(process.execPath, ['-e', CACHED_PREBUILD_PATH], { cwd: dir, env, timeoutMs: 30_000 }),
    "prebuild-install's cache path",
  ).stdout;
  if (!path.startsWith(options.cache))
    throw new Error(`prebuild-install would look in ${path}, not in ${options.cache}`);
  mkdirSync(dirname(path), { recursive: true });
  // A prebuild tarball holds the binary at its path in the package (prebuild-install unpacks it there).
  expectSuccess(
    await run('tar', ['-czf', path, '-C', sameAsCheckout ? checkout : installed, BINARY], { cwd: dir, timeoutMs }),
    'tar of the binary',
  );
  return { version, from: sameAsCheckout ? 'checkout' : 'compiled once' };
}

/** True when better-sqlite3 under `project` was compiled there (node-gyp leaves its object files), not unpacked. */
export function compiledSqlite(project: string): boolean {
  return existsSync(join(project, 'node_modules', 'better-sqlite3', 'build', 'Release', 'obj.target'));
}

function readJson(path: string): { version: string } {
  return JSON.parse(readFileSync(path, 'utf8')) as { version: string };
}
