import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The tarballs `npm pack` made of the three packages (docs/packages.md). */
export interface PackedPackages {
  kit: string;
  emulator: string;
  create: string;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion, killed past `timeoutMs`, with its output captured. */
export function run(
  command: string,
  args: string[],
  options: { cwd: string; timeoutMs: number; env?: NodeJS.ProcessEnv },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, NO_COLOR: '1', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Fails with the command's own output, so a failed step in CI says why. */
export function expectSuccess(result: RunResult, what: string): RunResult {
  if (result.code !== 0) throw new Error(`${what} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  return result;
}

/** `npm pack` of the kit and its workspaces into `dir`, as a release would (prepack builds dist/ first). */
export async function packPackages(dir: string, timeoutMs: number): Promise<PackedPackages> {
  const packed = expectSuccess(
    await run(
      'npm',
      ['pack', '--workspaces', '--include-workspace-root', '--pack-destination', dir, '--json', '--silent'],
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
  return { kit: file('convo-kit'), emulator: file('@convo-kit/emulator'), create: file('create-convo-kit') };
}
