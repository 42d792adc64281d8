import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TEMPLATES } from '../../src/cli/create-starter/templates-catalog.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Manifest {
  name: string;
  version: string;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  exports?: Record<string, unknown>;
}
const manifest = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as Manifest;
const kit = manifest('package.json');
const emulator = manifest('packages/emulator/package.json');
const create = manifest('packages/create-convo-kit/package.json');

/** Every file under `dir` with one of the extensions, as [path, text]. */
function sources(dir: string, pattern: RegExp): [string, string][] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && pattern.test(entry.name))
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return [path, readFileSync(path, 'utf8')];
    });
}

// docs/packages.md: three packages released together, and what each one brings.
describe('the package layout', () => {
  it('releases the three packages with one version, the kit naming its emulator package at it', () => {
    expect([emulator.version, create.version]).toEqual([kit.version, kit.version]);
    expect(kit.peerDependencies?.['@convo-kit/emulator']).toBe(`^${kit.version}`);
  });

  it('runs nothing on a user machine: no install script, the build runs before packing', () => {
    for (const pkg of [kit, emulator, create])
      expect(Object.keys(pkg.scripts ?? {}).filter((s) => /^(pre|post)?install$|^prepare$/.test(s))).toEqual([]);
    expect(kit.scripts?.prepack).toBe('npm run build');
  });

  it("keeps the emulator's libraries out of the kit: each is a dependency of @convo-kit/emulator, imported through it", () => {
    const libraries = Object.keys(emulator.dependencies ?? {}).filter((name) => !name.startsWith('@types/'));
    expect(libraries.filter((name) => name in (kit.dependencies ?? {}))).toEqual([]);
    // Each re-exporting module imports a library the package depends on.
    for (const [path, text] of sources('packages/emulator', /\.js$/)) {
      for (const [, from, bare] of text.matchAll(/from '([^']+)'|import '([^']+)'/g)) {
        const specifier = (from ?? bare)!;
        expect(libraries, `${path} imports ${specifier}`).toContain(specifier.replace(/^((@[^/]+\/)?[^/]+).*$/, '$1'));
      }
    }
    // Every subpath the kit's code imports is one the package exports.
    const exported = Object.keys(emulator.exports ?? {});
    const imported = sources('src', /\.ts$/).flatMap(([, text]) =>
      [...text.matchAll(/'@convo-kit\/emulator\/([\w-]+)'/g)].map((m) => `./${m[1]}`),
    );
    expect(imported.length).toBeGreaterThan(0);
    expect([...new Set(imported)].filter((subpath) => !exported.includes(subpath))).toEqual([]);
  });

  it('has create-convo-kit run the kit of its own version, with the prompts range the kit names', () => {
    const bin = readFileSync(join(ROOT, 'packages/create-convo-kit/index.js'), 'utf8');
    expect(bin).toContain(`export const PROMPTS = '@inquirer/prompts@${kit.peerDependencies?.['@inquirer/prompts']}'`);
    expect(bin).toContain('`--package=convo-kit@${version}`');
  });

  it('exports every entry the templates import, each built from a src/ entry that exists', () => {
    const entries = Object.entries((kit.exports ?? {}) as Record<string, string | { default: string }>).filter(
      ([subpath]) => subpath !== './package.json',
    );
    for (const [subpath, target] of entries) {
      const built = typeof target === 'string' ? target : target.default;
      const source = built.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts');
      expect(existsSync(join(ROOT, source)), `${subpath}: ${source}`).toBe(true);
    }
    const imported = sources('templates', /\.ts$/).flatMap(([, text]) =>
      [...text.matchAll(/from '(convo-kit(?:\/[\w/-]+)?)'/g)].map((m) => m[1]!.replace(/^convo-kit/, '.')),
    );
    expect([...new Set(imported)].filter((subpath) => !entries.some(([exported]) => exported === subpath))).toEqual([]);
  });

  it('has the templates start and stop through the kit: settings, telemetry, listen and close', () => {
    // convo-kit/settings reads the environment, convo-kit/telemetry the OTEL_* variables, and serve or
    // serveReply and closeOnSignals listen and close: a template repeats none of them.
    for (const [path, text] of sources('templates', /\.ts$/).filter(([file]) => file.includes('/src/'))) {
      expect(text, path).not.toMatch(/loadEnvFile|\.listen\(|process\.(on|once)\('SIG|from '@opentelemetry\//);
    }
  });

  it('has every template depend on the kit and its emulator package at this version', () => {
    for (const { name } of TEMPLATES) {
      const template = manifest(`templates/${name}/package.json`);
      expect(template.dependencies?.['convo-kit'], name).toBe(`^${kit.version}`);
      expect(template.devDependencies?.['@convo-kit/emulator'], name).toBe(`^${kit.version}`);
    }
  });
});
