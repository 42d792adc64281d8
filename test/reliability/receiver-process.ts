import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./fixtures/receiver-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const running = new Set<ReceiverProcess>();

/**
 * A receiver process (fixtures/receiver-child.ts). Every line it prints goes to `journal`, shared by the
 * processes of one scenario, so a restart's lines follow its predecessor's.
 */
export class ReceiverProcess {
  port = 0;
  private readonly child: ChildProcess;
  private readonly exited: Promise<void>;
  /** The one reader of the child's stdout: every line goes to the journal, and `start` watches for the port. */
  private readonly lines: Interface;

  private constructor(dbPath: string, journal: string[], env: Record<string, string>) {
    this.child = spawn(process.execPath, ['--import', 'tsx', CHILD, dbPath], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    running.add(this);
    journal.push(`process ${this.child.pid}`);
    this.exited = new Promise((resolve) => this.child.once('exit', () => resolve()));
    void this.exited.then(() => running.delete(this));
    this.lines = createInterface({ input: this.child.stdout! }).on('line', (line) => journal.push(line));
  }

  /** Starts one and waits until it listens. */
  static async start(dbPath: string, journal: string[], env: Record<string, string> = {}): Promise<ReceiverProcess> {
    const started = new ReceiverProcess(dbPath, journal, env);
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the receiver process did not listen within 60 s')), 60_000);
      started.child.once('exit', (code) => reject(new Error(`the receiver process exited with ${code}`)));
      const onLine = (line: string) => {
        const match = /^port (\d+)$/.exec(line);
        if (!match) return;
        clearTimeout(timer);
        started.lines.off('line', onLine);
        resolve(Number(match[1]));
      };
      started.lines.on('line', onLine);
    });
    started.port = port;
    return started;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/webhooks`;
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Resident and peak resident memory (VmRSS, VmHWM), in MiB. */
  memory(): { rss: number; peak: number } {
    const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
    const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)![1]);
    return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
  }

  /** SIGTERM closes gracefully; SIGKILL is a crash. Resolves once the process is gone. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    await this.exited;
  }
}

/** For afterEach: no receiver process outlives its scenario. */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((p) => p.stop('SIGKILL')));
}
