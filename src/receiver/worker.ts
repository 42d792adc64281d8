import PQueue from 'p-queue';
import type { Logger } from 'pino';
import type { DeliveryRecord, DeliveryStore } from '../store/index.js';
import type { RunDeliveryResult } from './run-delivery.js';

export interface WorkerDeps {
  store: DeliveryStore;
  run: (record: DeliveryRecord) => Promise<RunDeliveryResult>;
  concurrency: number;
  leaseMs: number;
  pollIntervalMs: number;
  owner: string;
  now: () => number;
  log: Logger;
}

/**
 * The inbox worker: claims due rows only as fast as the queue has room, so a flood waits in the store,
 * not in memory. It wakes on a new delivery, when a task finishes, at the next retry time, when the store
 * says another process stored one, and on a poll (which also finds leases expired by a process that died).
 */
export class Worker {
  private readonly queue: PQueue;
  private running = false;
  private pumping: Promise<number> | undefined;
  private again = false;
  private poll: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryAt = Infinity;
  private unwatch: (() => void) | undefined;

  constructor(private readonly deps: WorkerDeps) {
    this.queue = new PQueue({ concurrency: deps.concurrency });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.poll = setInterval(() => this.wake(), this.deps.pollIntervalMs);
    this.poll.unref();
    // Rows another process stored wake us at once where the store can tell (PostgreSQL); else the poll finds them.
    this.unwatch = this.deps.store.watch?.(() => this.wake());
    this.wake();
  }

  /** Claim what is due now (if there is room); cheap to call often: overlapping calls coalesce. */
  wake(): void {
    // A full queue claims nothing: skip the pump (a finishing task wakes us again).
    if (!this.running || this.room() <= 0) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = this.pump().finally(() => {
      this.pumping = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /** Resolves when nothing is due and nothing is running (future retries do not count). */
  async idle(): Promise<void> {
    while (this.running) {
      await this.queue.onIdle();
      if (this.pumping) {
        await this.pumping;
        continue;
      }
      this.wake();
      const claimed = await this.pumping;
      if (!claimed && this.queue.size === 0 && this.queue.pending === 0) return;
    }
  }

  /** Stops claiming and waits for the handlers already running. */
  async stop(): Promise<void> {
    this.running = false;
    clearInterval(this.poll);
    clearTimeout(this.retryTimer);
    this.unwatch?.();
    await this.pumping;
    await this.queue.onIdle();
  }

  private async pump(): Promise<number> {
    let total = 0;
    while (this.running) {
      const room = this.room();
      if (room <= 0) break;
      let claimed: DeliveryRecord[];
      try {
        claimed = await this.deps.store.claim({
          limit: room,
          leaseMs: this.deps.leaseMs,
          owner: this.deps.owner,
          now: this.deps.now(),
        });
      } catch (error) {
        this.deps.log.warn({ err: error }, 'could not claim deliveries; trying again at the next poll');
        break;
      }
      total += claimed.length;
      for (const record of claimed) {
        void this.queue.add(async () => {
          const result = await this.deps.run(record);
          if (result.outcome === 'failed') this.wakeAt(result.retryAt);
          this.wake();
        });
      }
      if (claimed.length < room) break;
    }
    return total;
  }

  private room(): number {
    return this.deps.concurrency - this.queue.size - this.queue.pending;
  }

  private wakeAt(at: number): void {
    if (at >= this.retryAt && this.retryTimer) return;
    clearTimeout(this.retryTimer);
    this.retryAt = at;
    this.retryTimer = setTimeout(
      () => {
        this.retryTimer = undefined;
        this.retryAt = Infinity;
        this.wake();
      },
      Math.max(0, at - this.deps.now()),
    );
    this.retryTimer.unref();
  }
}
