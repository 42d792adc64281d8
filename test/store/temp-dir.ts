import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh temp directory per test file, removed afterwards; SQLite files live there. */
export function tempDir(prefix = 'convo-kit-'): { path: (name: string) => string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { path: (name) => join(dir, name), remove: () => rmSync(dir, { recursive: true, force: true }) };
}
