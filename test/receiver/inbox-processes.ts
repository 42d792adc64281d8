import { fileURLToPath } from 'node:url';
import { CliProcess } from '../cli/run-cli.js';

const CHILD = fileURLToPath(new URL('./fixtures/inbox-child.ts', import.meta.url));

export interface InboxProcessOptions {
  kind: 'sqlite' | 'postgres';
  /** The SQLite file, or the PostgreSQL schema. */
  where: string;
  handlerMs?: number;
  leaseMs?: number;
}

/** A receiver process on a shared inbox (fixtures/inbox-child.ts); killAllCli() ends any left running. */
export class InboxProcess {
  readonly process: CliProcess;
  port = 0;

  constructor(options: InboxProcessOptions) {
    this.process = new CliProcess([options.where], {
      script: CHILD,
      timeoutMs: 400_000,
      env: {
        INBOX_KIND: options.kind,
        HANDLER_MS: String(options.handlerMs ?? 0),
        LEASE_MS: options.leaseMs === undefined ? undefined : String(options.leaseMs),
      },
    });
  }

  async ready(): Promise<this> {
    const [, port] = await this.process.waitFor(/^port (\d+)$/m, 60_000);
    this.port = Number(port);
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/webhooks`;
  }

  /** Ids by what the handler printed: `start` or `end`, in order, repeats kept. */
  lines(word: 'start' | 'end'): string[] {
    const pattern = new RegExp(`^${word} (\\S+)$`, 'gm');
    return [...this.process.stdout.matchAll(pattern)].map((m) => m[1]!);
  }
}

export const startInboxProcess = (options: InboxProcessOptions) => new InboxProcess(options).ready();
