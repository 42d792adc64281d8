import { createHash } from 'node:crypto';
import { redactText } from '../internal/redact-text.js';
import {
  MAX_STEP_NAME_CHARS,
  MAX_STEPS_PER_EVENT,
  type DeliveryStore,
  type StepRecord,
  type TransactionClient,
} from '../store/index.js';
import { MAX_ERROR_CHARS } from '../store/store-rules.js';
import { InvalidOptionError } from '../errors.js';
import { ReceiverError } from './receiver-error.js';
import { stepResultText, stepResultValue } from './step-result.js';
import { stepSpans, type StepOutcome } from '../telemetry/step-telemetry.js';

export interface StepRunnerOptions {
  store: DeliveryStore;
  /** The event's key in the journal: its signed event id, or the delivery id when the body has none. */
  eventKey: string;
  /** The stored delivery this attempt runs. */
  deliveryId: string;
  attempt: number;
  now: () => number;
  /** The receiver's secrets, hidden from a failed step's recorded error. */
  secrets: () => Promise<readonly string[]>;
}

/** How much of a failed step's message is read for secrets; the store keeps MAX_ERROR_CHARS of it. */
const READ_CHARS = 16 * MAX_ERROR_CHARS;

/** Where the user reads about steps, quoted by every error the runner throws. */
const GUIDE = 'README "Effects, exactly once"';

/**
 * One attempt's steps (ctx.step, ctx.transaction, and every ctx.client call): each name runs once per
 * event. The journal is read once, at the first step of the attempt; a done step answers its journaled
 * result without running, a new one runs and is journaled. This is the one place steps run, so tracing
 * or metrics around a step go here.
 */
export class StepRunner {
  private readonly options: StepRunnerOptions;
  private journal: Promise<Map<string, StepRecord>> | undefined;
  private readonly used = new Set<string>();
  private readonly ordinals = new Map<string, number>();
  private readonly spans = stepSpans();

  constructor(options: StepRunnerOptions) {
    this.options = options;
  }

  /** `fn`'s result, journaled: run now, or read back from an earlier attempt that finished this step. */
  step<T>(name: string, fn: () => T | PromiseLike<T>): Promise<T> {
    return this.traced(name, 'step', (outcome) => this.runStep(name, fn, outcome));
  }

  private async runStep<T>(name: string, fn: () => T | PromiseLike<T>, outcome: (o: StepOutcome) => void): Promise<T> {
    const done = await this.journaled(name, fn, 'ctx.step');
    if (done) {
      outcome('journaled');
      return stepResultValue(done.result) as T;
    }
    const startedAt = this.options.now();
    let value: T;
    let text: string | null;
    try {
      value = await fn();
      text = stepResultText(name, value);
    } catch (error) {
      await this.saveFailure(name, startedAt, error);
      throw error;
    }
    const saved = await this.options.store.saveStep({
      ...this.start(name, startedAt),
      outcome: 'done',
      result: text,
      error: null,
      finishedAt: this.options.now(),
    });
    // Another attempt (a process that lost its lease) journaled the step first: its result stands.
    return saved.result === text ? value : (stepResultValue(saved.result) as T);
  }

  /**
   * `fn(sql)` inside a transaction of the store's database, the step journaled in the same transaction
   * (the PostgreSQL store); refused where the store cannot (SQLite).
   */
  transaction<T, C extends TransactionClient = TransactionClient>(
    name: string,
    fn: (sql: C) => T | PromiseLike<T>,
  ): Promise<T> {
    return this.traced(name, 'transaction', (outcome) => this.runTransaction(name, fn, outcome));
  }

  private async runTransaction<T, C extends TransactionClient>(
    name: string,
    fn: (sql: C) => T | PromiseLike<T>,
    outcome: (o: StepOutcome) => void,
  ): Promise<T> {
    const { store } = this.options;
    if (!store.stepTransaction) {
      throw new ReceiverError(
        'TRANSACTION_UNSUPPORTED',
        `ctx.transaction("${String(name).slice(0, 50)}") needs a store that shares a database with your writes: the PostgreSQL store (createPostgresStore). With the SQLite store, use ctx.step (${GUIDE})`,
      );
    }
    const done = await this.journaled(name, fn, 'ctx.transaction');
    if (done) {
      outcome('journaled');
      return stepResultValue(done.result) as T;
    }
    const startedAt = this.options.now();
    let ran: { value: T } | undefined;
    try {
      const saved = await store.stepTransaction(this.start(name, startedAt), async (sql) => {
        const value = await fn(sql as C);
        ran = { value };
        return { result: stepResultText(name, value), finishedAt: this.options.now() };
      });
      // Not run: another process finished the step first, and its result stands.
      return ran ? ran.value : (stepResultValue(saved.result) as T);
    } catch (error) {
      await this.saveFailure(name, startedAt, error);
      throw error;
    }
  }

  /** `body` under the step's span when telemetry is on; called synchronously either way (names claim in call order). */
  private traced<T>(
    name: string,
    kind: 'step' | 'transaction',
    body: (outcome: (o: StepOutcome) => void) => Promise<T>,
  ): Promise<T> {
    return this.spans ? this.spans.trace(name, kind, body) : body(() => undefined);
  }

  /** The next ordinal of a route in this attempt (`messages.send` 1, 2, …): ctx.client's step names. */
  ordinal(routeId: string): number {
    const n = (this.ordinals.get(routeId) ?? 0) + 1;
    this.ordinals.set(routeId, n);
    return n;
  }

  /**
   * The Idempotency-Key of a step: the same on every attempt of this event at this receiver, so a send the
   * service accepted before a crash is answered as a replay. The delivery id is in it because the service
   * gives each endpoint its own (docs/webhook-deliveries.md): two endpoints that get one event and both send
   * must not share a key, or the second would get the first's message back instead of sending its own.
   */
  idempotencyKey(name: string): string {
    const { eventKey, deliveryId } = this.options;
    return `ck_${createHash('sha256').update(`${eventKey}\n${deliveryId}\n${name}`).digest('base64url')}`;
  }

  /** Claims the name for this run (synchronously: ordinals and duplicates follow call order) and answers its done step, if any. */
  private journaled(name: string, fn: unknown, what: string): Promise<StepRecord | undefined> {
    this.claimName(name, what);
    if (typeof fn !== 'function')
      throw new InvalidOptionError(`Expected ${what}("${name}", fn) to get a function, got ${typeof fn}`);
    return this.load().then((journal) => journal.get(name));
  }

  private claimName(name: string, what: string): void {
    if (typeof name !== 'string' || name === '' || name.length > MAX_STEP_NAME_CHARS) {
      throw new ReceiverError(
        'STEP_NAME_INVALID',
        `Expected ${what}'s name to be a string of 1 to ${MAX_STEP_NAME_CHARS} characters, got \`${String(name).slice(0, 50)}\``,
      );
    }
    if (this.used.has(name)) {
      throw new ReceiverError(
        'STEP_NAME_REUSED',
        `Step name "${name}" is used twice in one run of this event's handlers: each step needs its own name, since the name is how a later attempt finds its result (${GUIDE})`,
      );
    }
    if (this.used.size >= MAX_STEPS_PER_EVENT) {
      throw new ReceiverError(
        'TOO_MANY_STEPS',
        `More than ${MAX_STEPS_PER_EVENT} steps in one run of this event's handlers (MAX_STEPS_PER_EVENT): journal a batch as one step`,
      );
    }
    this.used.add(name);
  }

  private load(): Promise<Map<string, StepRecord>> {
    this.journal ??= this.options.store.steps(this.options.eventKey).then(
      (steps) => new Map(steps.filter((s) => s.outcome === 'done').map((s) => [s.name, s])),
      (error: unknown) => {
        // The next step of this attempt reads again.
        this.journal = undefined;
        throw error;
      },
    );
    return this.journal;
  }

  private start(name: string, startedAt: number) {
    const { eventKey, deliveryId, attempt } = this.options;
    return { eventKey, name, deliveryId, attempt, startedAt };
  }

  /** A failed step is kept to show where the attempt stopped (never as done); a store failure here changes nothing. */
  private async saveFailure(name: string, startedAt: number, error: unknown): Promise<void> {
    try {
      const message = (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, READ_CHARS);
      await this.options.store.saveStep({
        ...this.start(name, startedAt),
        outcome: 'failed',
        result: null,
        error: redactText(message, await this.options.secrets()),
        finishedAt: this.options.now(),
      });
    } catch {
      // The attempt fails with the step's own error either way.
    }
  }
}
