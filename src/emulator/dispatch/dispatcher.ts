import type { LookupFunction } from 'node:net';
import type { AddressPolicy } from '../../internal/address-policy.js';
import { prefixedId } from '../../internal/prefixed-id.js';
import type Database from 'better-sqlite3';
import type { Logger } from 'pino';
import { eventSchemas, type EventData, type EventName } from '../../events/index.js';
import { newDeliveryId } from '../../signature/index.js';
import type { EmulatorClock } from '../clock.js';
import type { EventBus } from '../route-handler.js';
import { WebhookStore } from '../state/webhook-store.js';
import { DeliveryQueue, type QueuedDelivery } from './delivery-queue.js';
import { postDelivery, type PostOutcome } from './post-delivery.js';
import { issuesText } from '../../internal/issue-text.js';
import { SlotShare } from './slot-share.js';
import { emulatorTelemetry } from '../../telemetry/emulator-telemetry.js';
import { Chaos } from '../chaos/chaos.js';

export interface DispatcherOptions {
  db: Database.Database;
  clock: EmulatorClock;
  logger: Logger;
  /** Seconds after a failed attempt before the next one; its length is the number of retries. @default [60, 600] */
  retryDelaysSeconds?: readonly number[];
  /** Deliveries posted at the same time. @default 8 */
  concurrency?: number;
  /**
   * Of those, at most this many to one endpoint that answers; one that fails or hangs gets one at a time, and
   * such endpoints together half the slots (slot-share.ts). @default 2
   */
  perEndpoint?: number;
  /** @default 8000 (the service's deadline) */
  timeoutMs?: number;
  /** Where deliveries may connect (checked at connect time). @default 'loopback' */
  policy?: AddressPolicy;
  /** The resolver under the address check; tests pass a stub so nothing leaves the machine. @default dns.lookup */
  resolve?: LookupFunction;
}

/** Longest real-time sleep between checks; the clock's own advance wakes the loop sooner. */
const MAX_SLEEP_MS = 30_000;

/**
 * Implements `ctx.events`: each emit persists one delivery per subscribed active endpoint (synchronously,
 * a local insert) and returns; a background loop posts them, signed, and retries on the emulator clock.
 */
export class Dispatcher implements EventBus {
  private readonly queue: DeliveryQueue;
  private readonly webhooks: WebhookStore;
  private readonly delays: readonly number[];
  /** The attempts whose POST runs, and who may start one next. */
  private readonly slots: SlotShare;
  private readonly waiters = new Set<() => void>();
  private readonly stopController = new AbortController();
  private pumpScheduled: NodeJS.Immediate | null = null;
  private sleep: NodeJS.Timeout | null = null;
  private readonly unsubscribe: () => void;
  private readonly telemetry = emulatorTelemetry();
  /** The hazards a test asked for (`/_emulator/chaos`); none by default. */
  readonly chaos: Chaos;

  constructor(private readonly options: DispatcherOptions) {
    this.chaos = new Chaos(options.clock);
    this.queue = new DeliveryQueue(options.db);
    this.webhooks = new WebhookStore(options.db);
    this.delays = options.retryDelaysSeconds ?? [60, 600];
    this.slots = new SlotShare({
      concurrency: options.concurrency ?? 8,
      perEndpoint: options.perEndpoint ?? 2,
      onSlotFreed: () => this.kick(),
    });
    this.queue.recover();
    this.unsubscribe = options.clock.onAdvance(() => this.kick());
    this.kick();
  }

  emit<N extends EventName>(event: N, data: EventData<N>): void {
    // An emulator that sends what the catalog does not describe would teach users the wrong contract.
    const parsed = eventSchemas[event].safeParse(data);
    if (!parsed.success) {
      throw new TypeError(`Event ${event} does not match its schema: ${issuesText(parsed.error.issues, 'data')}`);
    }
    const endpoints = this.webhooks.subscribers(event);
    if (endpoints.length === 0) return;
    const body = JSON.stringify({ id: prefixedId('evt'), event, created_at: this.options.clock.iso(), data });
    const now = this.options.clock.now();
    this.queue.enqueue(
      endpoints.map((e) => ({
        id: newDeliveryId(),
        endpoint_id: e.id,
        event,
        body,
        due_at: this.chaos.firstAttemptAt(e.id, now),
      })),
      now,
    );
    this.kick();
  }

  /** Resolves once nothing is due and nothing is in flight (for tests and graceful shutdown). */
  async idle(): Promise<void> {
    while (
      !this.stopped &&
      (this.slots.size > 0 || this.pumpScheduled !== null || this.queue.hasDue(this.options.clock.now()))
    ) {
      if (this.pumpScheduled === null && this.slots.size === 0) this.kick();
      await new Promise<void>((resolve) => this.waiters.add(resolve));
    }
  }

  /** Sends a finished delivery again now, same id and bytes (the console's Resend). */
  resend(deliveryId: string): ReturnType<DeliveryQueue['resend']> {
    const outcome = this.queue.resend(deliveryId, this.options.clock.now());
    if (outcome === 'resent') this.kick();
    return outcome;
  }

  /** The endpoint's attempt log and running totals, read by the webhooks handlers and usage. */
  get deliveries(): DeliveryQueue {
    return this.queue;
  }

  /** Stops posting; deliveries in flight are abandoned and due again at the next start (file database). */
  stop(): void {
    if (this.stopped) return;
    this.stopController.abort();
    this.unsubscribe();
    if (this.pumpScheduled) clearImmediate(this.pumpScheduled);
    if (this.sleep) clearTimeout(this.sleep);
    this.pumpScheduled = null;
    this.slots.clear();
    this.notify();
  }

  private get stopped(): boolean {
    return this.stopController.signal.aborted;
  }

  private kick(): void {
    if (this.stopped || this.pumpScheduled) return;
    this.pumpScheduled = setImmediate(() => this.pump());
  }

  private notify(): void {
    for (const resolve of this.waiters) resolve();
    this.waiters.clear();
  }

  private pump(): void {
    this.pumpScheduled = null;
    if (this.sleep) clearTimeout(this.sleep);
    this.sleep = null;
    try {
      const now = this.options.clock.now();
      const claimed = this.queue.claim(now, this.slots.round(this.webhooks.ids()));
      for (const delivery of claimed) {
        this.slots.start(delivery.id, delivery.endpoint_id);
        let answered = false;
        void this.attempt(delivery)
          .then((ok) => (answered = ok))
          .catch((error: unknown) =>
            this.options.logger.error(
              { err: error, delivery_id: delivery.id },
              'webhook attempt failed inside the emulator',
            ),
          )
          .finally(() => {
            this.slots.finish(delivery.id, answered);
            this.kick();
            this.notify();
          });
      }
      // Rows due now but not claimed wait for a slot: the attempt that frees it kicks the loop.
      const next = this.queue.nextDueAt();
      if (next !== null && next > now) {
        const wait = Math.min(next - now, MAX_SLEEP_MS);
        this.sleep = setTimeout(() => this.pump(), wait);
        this.sleep.unref();
      }
    } catch (error) {
      // The database went away (closed, or broken on purpose by a test): deliveries wait for the next start.
      this.options.logger.error({ err: error }, 'webhook dispatch paused: the database is unavailable');
    }
    this.notify();
  }

  /** One POST and its record; true when the receiver answered 2xx. */
  private async attempt(delivery: QueuedDelivery): Promise<boolean> {
    const endpoint = this.webhooks.get(delivery.endpoint_id);
    const now = this.options.clock.now();
    const [secret, ...moreSecrets] = endpoint ? this.webhooks.signingSecretsOf(endpoint.id, now) : [];
    const attempt = delivery.attempts + 1;
    let outcome: PostOutcome;
    if (!endpoint || !secret) {
      outcome = { ok: false, statusCode: null, error: 'endpoint no longer exists' };
    } else {
      const post = () =>
        postDelivery({
          url: endpoint.url,
          secret,
          moreSecrets,
          deliveryId: delivery.id,
          event: delivery.event,
          body: delivery.body,
          timeoutMs: this.options.timeoutMs,
          signal: this.stopController.signal,
          policy: this.options.policy ?? 'loopback',
          resolve: this.options.resolve,
        });
      outcome = await post();
      // Chaos (docs/emulator.md): the receiver got this attempt, and still sees it retried or sent twice.
      if (this.chaos.forcesTimeout(endpoint.id, attempt)) {
        outcome = { ok: false, statusCode: null, error: 'chaos: counted as a timeout whatever the answer' };
      } else if (outcome.ok && this.chaos.duplicates(endpoint.id)) {
        await post();
      }
    }
    if (this.stopped) return outcome.ok;
    const at = this.options.clock.now();
    const delay = !outcome.ok && endpoint ? this.delays[attempt - 1] : undefined;
    const nextAttemptAt = delay === undefined ? null : at + delay * 1000;
    try {
      this.queue.settle(delivery, { ...outcome, at, nextAttemptAt });
    } catch (error) {
      this.options.logger.error({ err: error, delivery_id: delivery.id }, 'could not record a webhook attempt');
      return outcome.ok;
    }
    const log = {
      delivery_id: delivery.id,
      endpoint_id: delivery.endpoint_id,
      event: delivery.event,
      attempt,
      status_code: outcome.statusCode,
    };
    this.telemetry?.webhookAttempt(
      delivery.endpoint_id,
      outcome.ok ? 'delivered' : nextAttemptAt === null ? 'failed' : 'retrying',
    );
    if (outcome.ok) this.options.logger.debug(log, 'webhook delivered');
    else
      this.options.logger.warn(
        { ...log, error: outcome.error, next_attempt_at: nextAttemptAt && new Date(nextAttemptAt).toISOString() },
        'webhook attempt failed',
      );
    return outcome.ok;
  }
}
