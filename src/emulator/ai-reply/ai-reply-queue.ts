import PQueue from 'p-queue';
import type { Logger } from 'pino';

/** Runs AI reply calls off the request path (what `ctx.aiReplies` offers handlers and controls). */
export interface AiReplyJobs {
  /**
   * Queues a job; false when the queue is full (the caller hands off at once, so nothing is lost).
   * The signal aborts when the emulator stops.
   */
  enqueue(name: string, job: (signal: AbortSignal) => Promise<void>): boolean;
}

export interface AiReplyQueueOptions {
  logger: Logger;
  /** Calls in flight at once. @default 4 */
  concurrency?: number;
  /** Jobs waiting beyond those; more are refused. @default 100 */
  maxWaiting?: number;
}

/** A bounded queue of AI reply jobs: a few calls at once, a bounded backlog, a stop that abandons the rest. */
export class AiReplyQueue implements AiReplyJobs {
  private readonly queue: PQueue;
  private readonly maxWaiting: number;
  private readonly stopController = new AbortController();

  private readonly log: Logger;

  constructor(options: AiReplyQueueOptions) {
    this.log = options.logger;
    this.queue = new PQueue({ concurrency: options.concurrency ?? 4 });
    this.maxWaiting = options.maxWaiting ?? 100;
  }

  enqueue(name: string, job: (signal: AbortSignal) => Promise<void>): boolean {
    if (this.stopController.signal.aborted || this.queue.size >= this.maxWaiting) return false;
    const signal = this.stopController.signal;
    void this.queue
      .add(async () => (signal.aborted ? undefined : job(signal)))
      .catch((error: unknown) => this.log.error({ err: error, job: name }, 'an AI reply job failed'));
    return true;
  }

  /** Resolves once no job waits or runs (for tests and graceful shutdown). */
  idle(): Promise<void> {
    return this.queue.onIdle();
  }

  /** Abandons waiting jobs and aborts running ones' calls. */
  stop(): void {
    this.stopController.abort();
    this.queue.clear();
  }
}
