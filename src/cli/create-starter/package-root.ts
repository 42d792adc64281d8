import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the convo-kit package this scaffolder belongs to lives, and how a new project should depend on it. */
export interface KitPackage {
  root: string;
  version: string;
  templatesDir: string;
  /**
   * What a project writes for `convo-kit`: `file:<root>` when this runs from a git checkout (so a project
   * tracks unpublished work), `file:<tarball>` when the kit was installed from a packed tarball (the
   * version the starter was made with, installable with no registry), else `^<version>` from the registry.
   */
  dependency: string;
  /** The same for `@convo-kit/emulator` (a dev dependency of every starter), released in step with the kit. */
  emulatorDependency: string;
}

const MAX_LEVELS = 6; // src/cli/create-starter and dist/cli/create-starter are three levels down
const LOCK_FILES = ['node_modules/.package-lock.json', 'package-lock.json'];
/** `npm pack`'s file name for @convo-kit/emulator, beside the kit's own tarball. */
const emulatorTarball = (version: string) => `convo-kit-emulator-${version}.tgz`;

/** Walks up from this module to the package.json named `convo-kit`. */
export function kitPackage(from: string = fileURLToPath(import.meta.url)): KitPackage {
  let dir = dirname(from);
  for (let level = 0; level < MAX_LEVELS; level += 1) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'convo-kit' && typeof pkg.version === 'string') {
        return {
          root: dir,
          version: pkg.version,
          templatesDir: join(dir, 'templates'),
          ...dependencies(dir, pkg.version),
        };
      }
    }
    dir = dirname(dir);
  }
  throw new Error(`create-starter: could not find the convo-kit package.json above ${from}`);
}

function dependencies(root: string, version: string): Pick<KitPackage, 'dependency' | 'emulatorDependency'> {
  if (existsSync(join(root, '.git')) || existsSync(join(root, 'src'))) {
    return { dependency: `file:${root}`, emulatorDependency: `file:${join(root, 'packages', 'emulator')}` };
  }
  const tarball = installedFromTarball(root);
  if (tarball) {
    const emulator = join(dirname(tarball), emulatorTarball(version));
    return {
      dependency: `file:${tarball}`,
      emulatorDependency: existsSync(emulator) ? `file:${emulator}` : `^${version}`,
    };
  }
  return { dependency: `^${version}`, emulatorDependency: `^${version}` };
}

/**
 * The tarball an installed kit came from (`npm install ./convo-kit-0.1.0.tgz`, `npx --package ./….tgz`), read
 * from the installing project's lock file, where npm records it as `resolved: "file:…"`; else undefined.
 */
function installedFromTarball(root: string): string | undefined {
  if (basename(dirname(root)) !== 'node_modules') return undefined;
  const project = dirname(dirname(root));
  for (const lockFile of LOCK_FILES) {
    const path = join(project, lockFile);
    if (!existsSync(path)) continue;
    let resolved: unknown;
    try {
      const lock = JSON.parse(readFileSync(path, 'utf8')) as { packages?: Record<string, { resolved?: unknown }> };
      resolved = lock.packages?.['node_modules/convo-kit']?.resolved;
    } catch {
      continue; // a lock file being written or hand-edited: the next one, or the registry version
    }
    if (typeof resolved === 'string' && resolved.startsWith('file:') && resolved.endsWith('.tgz')) {
      const tarball = resolve(project, resolved.slice('file:'.length));
      if (existsSync(tarball)) return tarball;
    }
  }
  return undefined;
}
