import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { CliError } from '../cli-error.js';
import { readableLogLine } from './readable-log-line.js';

export interface AppProcess {
  child: ChildProcess;
  /** Resolves when the app accepts connections on its port; rejects if it exits first or takes longer than `timeoutMs`. */
  ready(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** The project's own tsx, so the app runs with the versions its package.json pins. */
function tsxCli(projectDir: string): string {
  try {
    return createRequire(join(projectDir, 'package.json')).resolve('tsx/cli');
  } catch {
    throw new CliError('USAGE', `tsx is not installed in ${projectDir}.`, {
      hint: 'Run npm install there (the starters list tsx in devDependencies).',
    });
  }
}

/**
 * Starts `entry` under `tsx watch` with `env` added: it restarts on every saved file, and the settings
 * (key, webhook secret) reach it through its environment only, never a file or the terminal.
 */
export function startApp(options: {
  dir: string;
  entry: string;
  env: Record<string, string>;
  port: number;
  watch: boolean;
}): AppProcess {
  const args = [tsxCli(options.dir), ...(options.watch ? ['watch', '--clear-screen=false'] : []), options.entry];
  // A process group of its own: a terminal's Ctrl-C reaches the whole foreground group, and tsx watch treats
  // the SIGTERM that stop() sends next as a second signal, on which it SIGKILLs the app mid-close. Here only
  // stop() signals it, once, so the app closes its receiver gracefully (README: Ctrl-C stops everything).
  const child = spawn(process.execPath, args, {
    cwd: options.dir,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  // The app's pino JSON becomes readable lines in this terminal; its own JSON stays for production.
  for (const [from, to] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ] as const) {
    createInterface({ input: from, crlfDelay: Infinity }).on('line', (line) => to.write(`${readableLogLine(line)}\n`));
  }
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // the group has gone already
    }
  };
  // Out of the terminal's group, the app would outlive a dev that exits without stop() (a second Ctrl-C).
  const orphanGuard = () => killGroup('SIGKILL');
  process.once('exit', orphanGuard);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      process.off('exit', orphanGuard);
      resolve(code);
    }),
  );
  return {
    child,
    async ready(timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      let done = false;
      void exited.then(() => (done = true));
      while (!done) {
        if (await accepts(options.port)) return;
        if (Date.now() > deadline) {
          throw new CliError('FAILED', `The app did not listen on port ${options.port} within ${timeoutMs / 1000} s.`, {
            hint: `dev sets PORT=${options.port} in its environment: listen on process.env.PORT (on 127.0.0.1 or every interface).`,
          });
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new CliError('FAILED', `The app exited (code ${await exited}) before it listened on port ${options.port}.`);
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killTimer = setTimeout(() => killGroup('SIGKILL'), 5_000);
      await exited;
      clearTimeout(killTimer);
    },
  };
}

/** Does something accept TCP connections on this loopback port? */
export function accepts(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host });
    socket.setTimeout(1_000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}
