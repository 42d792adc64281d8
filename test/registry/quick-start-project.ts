import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, run } from '../support/run-command.js';

/** Bytes a folder takes on disk, as `du` counts them (the unit issue 24's 90 MB baseline was measured in). */
export async function diskUsage(dir: string): Promise<number> {
  const du = await run('du', ['-sk', dir], { cwd: REPO_ROOT, timeoutMs: 60_000 });
  const kib = Number(du.stdout.split('\t')[0]);
  if (du.code !== 0 || !Number.isFinite(kib)) throw new Error(`du -sk ${dir}: ${du.stderr}`);
  return kib * 1024;
}

/**
 * The README's quick start snippet (the first `ts` block under "## Quick start"), listening on PORT when
 * set, so the test runs what a reader copies.
 */
export function quickStartSnippet(): string {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Quick start'));
  const block = /```ts\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('README.md: no ts block under "## Quick start"');
  return block[1]!.replace('app.listen(3000', 'app.listen(Number(process.env.PORT ?? 3000)');
}
