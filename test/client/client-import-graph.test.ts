import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const entry = resolve(root, 'src/client/index.ts');
const COMPILE: ts.TranspileOptions['compilerOptions'] = {
  module: ts.ModuleKind.ES2022,
  target: ts.ScriptTarget.ES2022,
  isolatedModules: true,
};
const SPECIFIER =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;

/**
 * The modules a runtime load of `convo-kit/client` pulls in: each file is compiled as the build compiles
 * it (type-only imports vanish), and the relative imports of the emitted JS are followed.
 */
function runtimeGraph(start: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = [start];
  while (queue.length > 0 && files.size < 1_000) {
    const file = queue.pop() as string;
    if (files.has(file)) continue;
    files.add(file);
    const js = ts.transpileModule(readFileSync(file, 'utf8'), { compilerOptions: COMPILE, fileName: file }).outputText;
    for (const m of js.matchAll(SPECIFIER)) {
      const spec = (m[1] ?? m[2] ?? m[3]) as string;
      if (spec.startsWith('.')) queue.push(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
      else packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] as string));
    }
  }
  return { files, packages };
}

describe('convo-kit/client module graph', () => {
  const { files, packages } = runtimeGraph(entry);

  it('loads zod and ipaddr.js (and node: built-ins) only, never express, better-sqlite3, pino or pg', () => {
    // ipaddr.js (no dependencies) checks webhook URL hosts by address range in the contract's WebhookCreate.
    expect([...packages].filter((p) => !p.startsWith('node:')).sort()).toEqual(['ipaddr.js', 'zod']);
    for (const heavy of ['express', 'better-sqlite3', 'pino', 'pg', 'p-queue', 'commander'])
      expect(packages.has(heavy)).toBe(false);
  });

  it('stays inside the client, the contract, resources, events, the shared error class, dependency-free internals and its telemetry', () => {
    const outside = [...files]
      .map((f) => f.slice(root.length + 1))
      .filter(
        (f) =>
          !/^src\/(client|api|resources|events|internal)\/|^src\/errors\.ts$|^src\/telemetry\/(client-telemetry|metric-names|otel-api)\.ts$/.test(
            f,
          ),
      );
    expect(outside).toEqual([]);
    // The walk is real: it reached the contract table through createClient.
    expect([...files].some((f) => f.endsWith('src/api/endpoints/tickets.ts'))).toBe(true);
  });

  it('would notice a heavy import (the scanner sees runtime imports and skips type-only ones)', () => {
    const probe = ts.transpileModule(
      "import type { Express } from 'express';\nimport { type Logger } from 'pino';\nimport Database from 'better-sqlite3';\nexport const x: Express | Logger | null = null; export { Database };",
      { compilerOptions: COMPILE, fileName: 'probe.ts' },
    ).outputText;
    expect([...probe.matchAll(SPECIFIER)].map((m) => m[1] ?? m[2] ?? m[3])).toEqual(['better-sqlite3']);
  });
});
