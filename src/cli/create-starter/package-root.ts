import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the convo-kit package this scaffolder belongs to lives, and how a new project should depend on it. */
export interface KitPackage {
  root: string;
  version: string;
  templatesDir: string;
  /** `file:<root>` when running from a git checkout (so a project tracks unpublished work), else `^<version>`. */
  dependency: string;
}

const MAX_LEVELS = 6; // src/cli/create-starter and dist/cli/create-starter are three levels down

/** Walks up from this module to the package.json named `convo-kit`. */
export function kitPackage(from: string = fileURLToPath(import.meta.url)): KitPackage {
  let dir = dirname(from);
  for (let level = 0; level < MAX_LEVELS; level += 1) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'convo-kit' && typeof pkg.version === 'string') {
        const checkout = existsSync(join(dir, '.git')) || existsSync(join(dir, 'src'));
        return {
          root: dir,
          version: pkg.version,
          templatesDir: join(dir, 'templates'),
          dependency: checkout ? `file:${dir}` : `^${pkg.version}`,
        };
      }
    }
    dir = dirname(dir);
  }
  throw new Error(`create-starter: could not find the convo-kit package.json above ${from}`);
}
