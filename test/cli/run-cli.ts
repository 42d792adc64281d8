import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SOURCES_AS_JS } from '../support/sources-as-js.js';

/**
 * The CLI as a user runs it, node on its entry: src/cli/convo-kit.ts as JavaScript (test/support/sources-as-js.ts,
 * which vitest's global setup keeps current), so that a start costs no tsx loader; with `tsx`, through the tsx
 * loader as well, for a command that imports a user's TypeScript module (`replay --handlers ./handlers.ts`).
 */
const ENTRY = join(SOURCES_AS_JS, 'cli', 'convo-kit.js');
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  input?: string | Buffer;
  cwd?: string;
  /** Killed with SIGKILL past this. @default 20000 */
  timeoutMs?: number;
  /** In a process group of its own, which stop() signals whole, as a terminal's Ctrl-C does. */
  group?: boolean;
  /** With the tsx loader, as `npx tsx node_modules/.bin/convo-kit …` runs it (a user's .ts module to import). */
  tsx?: boolean;
}

const running = new Set<CliProcess>();

/** A CLI child process that keeps running (listen, emulator) until stopped; output is captured as it comes. */
export class CliProcess {
  stdout = '';
  stderr = '';
  readonly exited: Promise<CliResult>;
  private readonly child: ChildProcess;
  private readonly group: boolean;
  private readonly waiters = new Set<() => void>();

  /** `args` follow the CLI entry, or run `options.script` (TypeScript, through tsx) instead: an app a test needs beside the CLI. */
  constructor(args: readonly string[], options: CliOptions & { script?: string } = {}) {
    if (!options.script && !existsSync(ENTRY))
      throw new Error(`No ${ENTRY}: test/support/sources-as-js.ts builds it, as a globalSetup of the vitest config`);
    // Strip the developer's own settings so that each test states what it passes.
    const env: Record<string, string | undefined> = {
      ...process.env,
      CONVO_KIT_WEBHOOK_SECRET: undefined,
      CONVO_KIT_DB: undefined,
      FORCE_COLOR: undefined,
      ...options.env,
    };
    const loader = options.script || options.tsx ? ['--import', 'tsx'] : [];
    this.child = spawn(process.execPath, [...loader, options.script ?? ENTRY, ...args], {
      cwd: options.cwd ?? ROOT,
      env: env as NodeJS.ProcessEnv,
      stdio: 'pipe',
      detached: options.group ?? false,
    });
    this.group = options.group ?? false;
    const timer = setTimeout(() => this.kill(), options.timeoutMs ?? 20_000);
    this.child.stdout!.setEncoding('utf8').on('data', (text: string) => this.append('stdout', text));
    this.child.stderr!.setEncoding('utf8').on('data', (text: string) => this.append('stderr', text));
    this.child.stdin!.end(options.input ?? '');
    running.add(this);
    this.exited = new Promise((resolve) => {
      this.child.on('close', (code, signal) => {
        clearTimeout(timer);
        running.delete(this);
        this.notify();
        resolve({ code, signal, stdout: this.stdout, stderr: this.stderr });
      });
    });
  }

  private append(stream: 'stdout' | 'stderr', text: string): void {
    this[stream] += text;
    this.notify();
  }

  private notify(): void {
    for (const waiter of this.waiters) waiter();
  }

  /** Resolves with the first match of `pattern` in stdout+stderr; rejects (with the output so far) if the process exits or `timeoutMs` passes first. */
  waitFor(pattern: RegExp, timeoutMs = 15_000): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`Timed out waiting for ${pattern}`)), timeoutMs);
      const check = () => {
        const match = (this.stdout + '\n' + this.stderr).match(pattern);
        if (match) finish(null, match);
        else if (this.child.exitCode !== null || this.child.signalCode !== null)
          finish(new Error(`CLI exited before ${pattern}`));
      };
      const finish = (error: Error | null, match?: RegExpMatchArray) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        if (error) reject(new Error(`${error.message}\n--- stdout\n${this.stdout}\n--- stderr\n${this.stderr}`));
        else resolve(match!);
      };
      this.waiters.add(check);
      check();
    });
  }

  /**
   * SIGKILLs the process and everything it started, and waits for its exit. `convo-kit dev` runs the app in
   * a process group of its own (src/cli/dev/app-process.ts), which a SIGKILL of dev alone leaves running,
   * so the descendants and the groups they lead are found first (once dev is gone they are reparented).
   */
  kill(): Promise<CliResult> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const pid = this.child.pid!;
      const tree = descendants(pid);
      const pids = new Set([pid, ...tree.map((p) => p.pid)]);
      // Only groups led by one of these processes: a child that stayed in the test runner's group is killed alone.
      const groups = new Set(tree.map((p) => p.pgid).filter((g) => pids.has(g)));
      if (this.group) groups.add(pid);
      for (const g of groups) signal(-g);
      for (const p of pids) signal(p);
    }
    return this.exited;
  }

  /** Sends a signal (Ctrl-C by default) and waits for the exit. */
  stop(signal: NodeJS.Signals = 'SIGINT'): Promise<CliResult> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      if (this.group) process.kill(-this.child.pid!, signal);
      else this.child.kill(signal);
    }
    return this.exited;
  }
}

/** Starts a TypeScript script (not the CLI) the same way, e.g. a user's app for the CLI to work beside. */
export function startScript(script: string, options: CliOptions = {}): CliProcess {
  return new CliProcess([], { ...options, script });
}

/** Runs a command to completion. */
export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  return new CliProcess(args, options).exited;
}

/** For afterEach: no child, and nothing a child started, outlives its test. */
export async function killAllCli(): Promise<void> {
  await Promise.all([...running].map((p) => p.kill()));
}

function signal(target: number): void {
  try {
    process.kill(target, 'SIGKILL');
  } catch {
    // gone already
  }
}

/** Every process below `root`, with its process group, from one `ps` listing. */
function descendants(root: number): { pid: number; pgid: number }[] {
  const rows = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,pgid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number, number]);
  const found: { pid: number; pgid: number }[] = [];
  const parents = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid, pgid] of rows) {
      if (parents.has(ppid) && !parents.has(pid)) {
        parents.add(pid);
        found.push({ pid, pgid });
        grew = true;
      }
    }
  }
  return found;
}
