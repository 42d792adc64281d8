import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { REPO_ROOT, run } from './pack-packages.js';

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

export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A child's stdout and stderr as they come, and a bounded wait for what they should say. */
export function untilOutput(child: ChildProcess) {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return {
    text: () => output,
    async until(check: (text: string) => boolean, timeoutMs: number): Promise<void> {
      for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
        if (check(output)) return;
        if (child.exitCode !== null) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      if (!check(output)) throw new Error(`Timed out waiting for the app's output; it said:\n${output}`);
    },
  };
}
