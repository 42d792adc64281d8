import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expectSuccess, REPO_ROOT, run } from '../support/run-command.js';

/** The tarballs `npm pack` made of the three packages (docs/packages.md). */
export interface PackedPackages {
  kit: string;
  emulator: string;
  create: string;
  /** Whether prepack built dist/ for this pack, or dist/ was already built from these sources. */
  built: boolean;
}

/** What `npm run build` (tsc -p tsconfig.build.json) reads: a change to any of them makes dist/ stale. */
const BUILD_INPUTS = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];

/**
 * `npm pack` of the kit and its workspaces into `dir`, as a release does: prepack builds dist/ first. When
 * dist/ is already newer than every input of the build (make's rule: in CI, `npm test` has just built it),
 * the pack skips that second build of the same sources (--ignore-scripts), which takes minutes on a busy
 * 2-core machine; `npm publish` itself always runs prepack.
 */
export async function packPackages(dir: string, timeoutMs: number): Promise<PackedPackages> {
  const built = !distIsCurrent();
  const packed = expectSuccess(
    await run(
      'npm',
      [
        'pack',
        '--workspaces',
        '--include-workspace-root',
        '--pack-destination',
        dir,
        '--json',
        '--silent',
        ...(built ? [] : ['--ignore-scripts']),
      ],
      { cwd: REPO_ROOT, timeoutMs },
    ),
    'npm pack',
  );
  // prepack's own output (tsc) comes before npm's JSON array.
  const files = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { name: string; filename: string }[];
  const file = (name: string) => {
    const entry = files.find((f) => f.name === name);
    if (!entry) throw new Error(`npm pack made no tarball of ${name}: ${packed.stdout}`);
    return join(dir, entry.filename);
  };
  return { kit: file('convo-kit'), emulator: file('@convo-kit/emulator'), create: file('create-convo-kit'), built };
}

/** tsc writes every output on each build, so dist/ is current when its oldest file is newer than every input. */
function distIsCurrent(): boolean {
  const outputs = mtimes(join(REPO_ROOT, 'dist'));
  if (outputs.length === 0) return false;
  const inputs = BUILD_INPUTS.flatMap((input) => mtimes(join(REPO_ROOT, input)));
  return Math.min(...outputs) > Math.max(...inputs);
}

/** Modification times of a file, or of every file under a folder; none when it does not exist. */
function mtimes(path: string): number[] {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return [];
  if (!stat.isDirectory()) return [stat.mtimeMs];
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => statSync(join(entry.parentPath, entry.name)).mtimeMs);
}
