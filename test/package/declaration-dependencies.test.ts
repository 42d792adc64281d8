import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

/** The declarations `npm run build` publishes, emitted in memory: every module specifier they import. */
function declarationImports(): Set<string> {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.build.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.build.json did not parse');
  const program = ts.createProgram(config.fileNames, { ...config.options, noEmit: false });
  const specifiers = new Set<string>();
  const found = /(?:from|import\()\s*'([^'.][^']*)'/g;
  program.emit(
    undefined,
    (_file, text) => {
      for (const match of text.matchAll(found)) specifiers.add(match[1]!);
    },
    undefined,
    true,
  );
  return specifiers;
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Whether a package ships its own types (else a user needs `@types/<name>`). */
function shipsTypes(name: string): boolean {
  const manifestPath = join(ROOT, 'node_modules', name, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
  if (manifest.types || manifest.typings) return true;
  if (JSON.stringify(manifest.exports ?? {}).includes('"types"')) return true;
  const main = typeof manifest.main === 'string' ? manifest.main.replace(/\.c?js$/, '') : 'index';
  return existsSync(join(dirname(manifestPath), `${main}.d.ts`));
}

// A user's compile step checks our declarations (unless skipLibCheck): each package they name comes with
// `npm install convo-kit` or is a peer the user adds for that feature (pg, @convo-kit/emulator), and types that
// do not ship with it are an optional peer `@types/*` (development packages never install with the runtime:
// docs/packages.md, Types). test/packages type-checks the quick start against the packed package.
describe('the published declarations', () => {
  it('name only dependencies and peers, whose types ship or are named as optional peers', () => {
    const external = [...declarationImports()]
      .filter((s) => !s.startsWith('node:') && !builtinModules.includes(s))
      .map(packageName);
    expect(external.length).toBeGreaterThan(0);
    const missing = [...new Set(external)].flatMap((name) => {
      if (!(name in pkg.dependencies) && !(name in pkg.peerDependencies)) return [`${name} (not a dependency)`];
      const typesName = `@types/${name.replace(/^@/, '').replace('/', '__')}`;
      if (shipsTypes(name)) return [];
      return pkg.peerDependenciesMeta[typesName]?.optional ? [] : [`${typesName} (for ${name})`];
    });
    expect(missing).toEqual([]);
  }, 600_000); // type-checks and emits every module in memory: a minute when idle, several on a loaded machine

  it('leave every @types package out of the runtime dependencies', () => {
    expect(Object.keys(pkg.dependencies).filter((name) => name.startsWith('@types/'))).toEqual([]);
  });
});
