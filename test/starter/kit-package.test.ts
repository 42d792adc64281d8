import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { kitPackage } from '../../src/cli/create-starter/package-root.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kit-package-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The kit as npm installs it into a project (`npm install <spec>`, or npx's cache): its package.json under
 * node_modules, and the project's hidden lock file recording where it came from. Returns the path of a
 * module inside the installed kit, where create-starter's code runs from.
 */
function installedKit(resolved: string): string {
  const project = join(dir, 'project');
  const kitRoot = join(project, 'node_modules', 'convo-kit');
  mkdirSync(join(kitRoot, 'dist', 'cli', 'create-starter'), { recursive: true });
  writeFileSync(join(kitRoot, 'package.json'), JSON.stringify({ name: 'convo-kit', version: '0.1.0' }));
  writeFileSync(
    join(project, 'node_modules', '.package-lock.json'),
    JSON.stringify({ lockfileVersion: 3, packages: { 'node_modules/convo-kit': { version: '0.1.0', resolved } } }),
  );
  return join(kitRoot, 'dist', 'cli', 'create-starter', 'package-root.js');
}

const touch = (path: string) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, '');
};

describe('the kit a starter depends on', () => {
  it('is the tarball the kit was installed from, and the emulator tarball beside it', () => {
    touch(join(dir, 'packed', 'convo-kit-0.1.0.tgz'));
    touch(join(dir, 'packed', 'convo-kit-emulator-0.1.0.tgz'));
    const kit = kitPackage(installedKit('file:../packed/convo-kit-0.1.0.tgz'));
    expect(kit.version).toBe('0.1.0');
    expect(kit.dependency).toBe(`file:${join(dir, 'packed', 'convo-kit-0.1.0.tgz')}`);
    expect(kit.emulatorDependency).toBe(`file:${join(dir, 'packed', 'convo-kit-emulator-0.1.0.tgz')}`);
  });

  it("is the registry's version of the emulator package when no tarball of it lies beside the kit's", () => {
    touch(join(dir, 'packed', 'convo-kit-0.1.0.tgz'));
    const kit = kitPackage(installedKit('file:../packed/convo-kit-0.1.0.tgz'));
    expect(kit.emulatorDependency).toBe('^0.1.0');
  });

  it('is the version it was made with, from the registry, for a kit installed from there', () => {
    const kit = kitPackage(installedKit('http://127.0.0.1:4873/convo-kit/-/convo-kit-0.1.0.tgz'));
    expect([kit.dependency, kit.emulatorDependency]).toEqual(['^0.1.0', '^0.1.0']);
  });

  it('is the registry version when the recorded tarball is gone (a cache cleaned since)', () => {
    const kit = kitPackage(installedKit('file:../packed/convo-kit-0.1.0.tgz'));
    expect(kit.dependency).toBe('^0.1.0');
  });
});
