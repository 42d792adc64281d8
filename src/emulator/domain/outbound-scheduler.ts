import type { Logger } from 'pino';
import type { EmulatorClock } from '../clock.js';
import type { EmulatorContext } from '../route-handler.js';
import { runCampaignsChunk } from './campaign-sender.js';
import { runDueSteps } from './journey-runner.js';

/** How often due work is looked for when nothing wakes the scheduler (a step due in a few real seconds). */
const POLL_MS = 1000;

/**
 * Runs the outbound work that is due on the emulator clock: journey steps and campaigns (scheduled
 * starts and sending). Woken by a trigger, an activation, a campaign start, every clock advance, and
 * a slow poll. Each run does a bounded chunk and yields to the event loop (setImmediate) before the
 * next, so a 25,000-recipient campaign never holds the API for long.
 */
export class OutboundScheduler {
  private pending: NodeJS.Immediate | null = null;
  private readonly poll: NodeJS.Timeout;
  private readonly unsubscribe: () => void;
  private stopped = false;

  constructor(
    private readonly ctx: EmulatorContext,
    clock: EmulatorClock,
    private readonly logger: Logger,
  ) {
    this.unsubscribe = clock.onAdvance(() => this.wake());
    this.poll = setInterval(() => this.wake(), POLL_MS).unref();
  }

  wake(): void {
    if (this.stopped || this.pending) return;
    this.pending = setImmediate(() => this.run());
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe();
    clearInterval(this.poll);
    if (this.pending) clearImmediate(this.pending);
    this.pending = null;
  }

  private run(): void {
    this.pending = null;
    if (this.stopped || !this.ctx.db.open) return;
    try {
      runDueSteps(this.ctx);
      if (runCampaignsChunk(this.ctx)) this.wake();
    } catch (error) {
      this.logger.error({ err: error }, 'outbound scheduler run failed');
    }
  }
}
