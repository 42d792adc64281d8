import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The checkout's root folder, with a trailing slash. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  /** Killed with SIGKILL past this. @default 30000 */
  timeoutMs?: number;
  /** Added to this process's environment (a key set to `undefined` is removed); NO_COLOR is set unless given. */
  env?: NodeJS.ProcessEnv;
}

/** Runs a command to completion with a time bound, capturing its output. */
export function run(command: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
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
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
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

/** A long-running command (an app, `npm run dev`) in a process group of its own; its output as it comes. */
export interface GroupProcess {
  /** stdout and stderr so far, interleaved as they came. */
  readonly output: string;
  /** Resolves with the exit code once the command has closed. */
  readonly exited: Promise<number | null>;
  /** Signals the whole group, as a terminal's Ctrl-C (SIGINT) reaches npm and everything under it. */
  stop(signal?: NodeJS.Signals): void;
  /** Waits until `check` holds for the output; fails with the output once the command exits or time runs out. */
  untilOutput(check: (output: string) => boolean, timeoutMs: number): Promise<void>;
}

export function startInGroup(
  command: string,
  args: readonly string[],
  options: Omit<RunOptions, 'timeoutMs'>,
): GroupProcess {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  let closed = false;
  void exited.then(() => (closed = true));
  return {
    get output() {
      return output;
    },
    exited,
    stop(signal = 'SIGINT') {
      if (!closed) process.kill(-child.pid!, signal);
    },
    async untilOutput(check, timeoutMs) {
      await until(
        async () => check(output) || (closed ? Promise.reject(new Error(`it exited:\n${output}`)) : false),
        () => `${command} ${args.join(' ')} to say what was expected; it said:\n${output}`,
        timeoutMs,
      );
    },
  };
}

/**
 * Polls `check` until it answers a value (not undefined or false), which it returns: a bound on how long an
 * outcome may take, never a sleep standing in for it. Throws naming `what` past the bound.
 */
export async function until<T>(
  check: () => Promise<T | undefined | false>,
  what: () => string,
  timeoutMs = 90_000,
): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what()}`);
}

/** A port free now on 127.0.0.1, for an app whose URL must be known before it starts (a webhook registered first). */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
