import { performance } from 'node:perf_hooks';
import type { EmulatorClock } from '../../clock.js';
import type { EmulatorContext } from '../../route-handler.js';
import { SCHEDULED_RUNS_PER_WAKE } from '../automations/automation-bounds.js';
import { runCampaignsChunk } from '../campaigns/campaign-sender.js';
import { deliverySteps, nextDeliveryDueAt } from '../messages/delivery-progress.js';
import { journeySteps } from '../journeys/journey-runner.js';
import { runBounded } from '../shared/run-bounded.js';
import { runDueSchedules } from '../automations/scheduled-automations.js';

/** How often due work is looked for when nothing wakes the scheduler (a step due in a few real seconds). */
const POLL_MS = 1000;
/**
 * Real-time budget of one run (journey steps, delivery steps, then campaign sends): then the event loop serves requests
 * before the next run, so GET /v1/status stays fast while a 25,000-recipient campaign goes out
 * (bench/campaign.bench.ts). On a loaded 2-core machine 4 ms gave a lower p99 than 8 ms at about the
 * same sending rate; each run's own queries cost well under a tenth of it.
 */
export const RUN_BUDGET_MS = 4;
/** The kinds of work sharing a run: journey steps, delivery steps, campaign sends. */
const KINDS_PER_RUN = 3;
/** Each kind's own share of a run's budget. */
const SHARE_MS = RUN_BUDGET_MS / KINDS_PER_RUN;
/** Delivery steps per run besides the time budget, so a fast machine still yields regularly. */
const DELIVERY_STEPS_PER_RUN = 1000;
/** The shortest wait for the next due delivery step: steps falling due together share one sweep. */
const SWEEP_MIN_WAIT_MS = 5;

/**
 * Runs the outbound work that is due on the emulator clock: scheduled automations, journey steps, delivery
 * progress (queued -> sent -> delivered | failed) and campaigns (scheduled starts and sending). Woken by a
 * trigger, an activation, a campaign start, a send, every clock advance, and a slow poll; one timer
 * waits for the next due delivery step (no timer per message). Each run does bounded work within
 * RUN_BUDGET_MS, each kind within its share of it, and yields to the event loop (setImmediate) before the next.
 */
export class OutboundScheduler {
  private pending: NodeJS.Immediate | null = null;
  private sweep: { timer: NodeJS.Timeout; at: number } | null = null;
  private readonly poll: NodeJS.Timeout;
  private readonly unsubscribe: () => void;
  private stopped = false;

  constructor(
    private readonly ctx: EmulatorContext,
    private readonly clock: EmulatorClock,
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
    this.clearSweep();
  }

  private run(): void {
    this.pending = null;
    if (this.stopped || !this.ctx.db.open) return;
    const start = performance.now();
    // The k-th kind (from 0) works until its share ends: what the kinds before it left of theirs, plus its
    // own SHARE_MS however long they took. One backlog (thousands of due journey steps after a clock jump)
    // cannot hold back delivery progress and the webhooks it fires, nor campaign sends (docs/outbound.md).
    const shareEnd = (k: number) => Math.max(start + (k + 1) * SHARE_MS, performance.now() + SHARE_MS);
    try {
      // Few and bounded by count (each run at most MAX_SCHEDULE_TARGETS sends), ahead of the timed shares.
      const schedules = runDueSchedules(this.ctx, SCHEDULED_RUNS_PER_WAKE);
      const journeys = runBounded(journeySteps(this.ctx), { deadline: shareEnd(0) });
      runBounded(deliverySteps(this.ctx), { maxSteps: DELIVERY_STEPS_PER_RUN, deadline: shareEnd(1) });
      const sending = runCampaignsChunk(this.ctx, shareEnd(2));
      const nextDue = nextDeliveryDueAt(this.ctx);
      if (schedules || journeys || sending || (nextDue !== null && nextDue <= this.clock.now())) this.wake();
      else if (nextDue !== null) this.sweepAt(nextDue);
    } catch (error) {
      this.ctx.logger.error({ err: error }, 'outbound scheduler run failed');
    }
  }

  /** One timer for the earliest due delivery step; an earlier one replaces it, a later one waits for it. */
  private sweepAt(dueAt: number): void {
    const at = Math.max(dueAt, this.clock.now() + SWEEP_MIN_WAIT_MS);
    if (this.sweep && this.sweep.at <= at) return;
    this.clearSweep();
    const timer = setTimeout(() => {
      this.sweep = null;
      this.wake();
    }, at - this.clock.now()).unref();
    this.sweep = { timer, at };
  }

  private clearSweep(): void {
    if (this.sweep) clearTimeout(this.sweep.timer);
    this.sweep = null;
  }
}
