import { randomBytes } from 'node:crypto';
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { hostname } from 'node:os';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { EventPattern } from '../events/index.js';
import { checkPruneAfter, pruneAfterForTolerance } from './prune-window.js';
import { createSqliteStore, type DeliveryRecord, type DeliveryStore } from '../store/index.js';
import { integerOption } from '../internal/integer-option.js';
import { createBackoff } from './backoff.js';
import { runDelivery, type RunDeliveryDeps } from './run-delivery.js';
import { BodyBudget } from '../internal/body-budget.js';
import { fetchHandler } from '../internal/fetch-handler.js';
import { createDeliveryHandler, type DeliveryInput, type HeaderInput } from './handle-delivery.js';
import { EventHandlerRegistry } from './event-handler-registry.js';
import type { ErrorListener, EventHandler } from './event-handler.js';
import { nodeListener, type NodeListenerOptions } from '../internal/node-listener.js';
import { envelopedServer } from '../internal/parser-refusals.js';
import { receiverLogger } from './receiver-logger.js';
import { resolveOptions, type ReceiverOptions } from './receiver-options.js';
import { accept, reject, type ReceiverResponse } from './receiver-response.js';
import { Worker } from './worker.js';
import { receiverTelemetry } from '../telemetry/receiver-telemetry.js';
import { backlogReader, checkHealth, resolveThresholds, type ReceiverHealth } from './receiver-health.js';
import { healthRoutes, type HealthRoutes } from './health-routes.js';
import { ReceiverError } from './receiver-error.js';
import {
  createInspector,
  type InspectorHandler,
  type InspectorOptions,
  type InspectorReplayOutcome,
} from '../console/inspector/index.js';
import { InvalidOptionError } from '../errors.js';

export type ReplayOutcome = 'done' | 'dead' | 'busy' | 'missing';

export interface ReplayOptions {
  /**
   * Forget the delivery's journaled steps first, so they run again (`convo-kit replay --rerun-steps`). By
   * default a replay keeps them: what already happened is not done again. @default false
   */
  rerunSteps?: boolean;
}

export interface CloseOptions {
  /** How long running handlers may go on before they are aborted and their rows released. @default 25000 */
  deadlineMs?: number;
}

/** Under Kubernetes' default 30 s grace period, with room for the store to close. */
const CLOSE_DEADLINE_MS = 25_000;

export interface Receiver {
  /** Adds a handler for an event name, `*` (also unknown events) or `ns.*`; `data` is typed by the event. */
  on<P extends EventPattern>(pattern: P, handler: EventHandler<P>): Receiver;
  /** Hears of each delivery that went dead (attempts used up, or data failing its event's schema). */
  onError(listener: ErrorListener): Receiver;
  /** The transport-agnostic core: headers and raw bytes in, status and JSON body out. */
  handle(input: DeliveryInput): Promise<ReceiverResponse>;
  /** Express middleware; reads the raw bytes itself, so mount it before any body parser. */
  middleware(): RequestHandler;
  /** A fetch-standard handler for other frameworks. */
  readonly fetch: (request: Request) => Promise<Response>;
  /** A node:http listener: `http.createServer(receiver.listener)`. */
  readonly listener: (req: IncomingMessage, res: ServerResponse) => void;
  /**
   * A node:http server, not yet listening, that serves `listener` (by default this receiver's own, for
   * every path; or your Express app with the receiver mounted in it) and answers what Node's HTTP parser
   * refuses (a broken request line, headers over Node's limit, a request too slow to arrive) in the
   * receiver's error envelope, logged like its other refusals, where a server of Node's own writes a bare
   * status. @example receiver.createServer().listen(3000)
   */
  createServer(listener?: RequestListener): Server;
  /** Starts the worker: claims due rows (also those a dead process left behind) now and periodically. */
  start(): Promise<void>;
  /** Resolves when nothing is due and no handler is running (future retries do not count). */
  idle(): Promise<void>;
  /**
   * Runs one stored delivery's handlers now, whatever its status (`convo-kit replay`): claimed in one write,
   * dispatched once; a failure leaves it dead (nothing retries it behind the caller's back).
   * `busy` when another worker holds it, `missing` when the store has no such id. Its journaled steps
   * answer from the journal unless `rerunSteps`.
   */
  replay(deliveryId: string, options?: ReplayOptions): Promise<ReplayOutcome>;
  /**
   * Graceful: refuses new deliveries (503 with Retry-After; the service retries, by then to another
   * instance), lets running handlers finish within `deadlineMs`, then aborts those still running and
   * releases their rows (due again at once, for any receiver on the store), and closes a store it opened.
   * A rolling deploy loses nothing and waits for no lease to expire.
   */
  close(options?: CloseOptions): Promise<void>;
  /**
   * Whether the store answers, what waits in it (pending, retrying, processing, dead) and the oldest
   * unfinished delivery's age, with a status from the `health` thresholds. Never throws.
   */
  health(): Promise<ReceiverHealth>;
  /**
   * `GET /healthz` (liveness: 200 while the process answers) and `GET /readyz` (readiness: 200 when the
   * store answers and the worker runs, else 503), with `health()` as the body. Express:
   * `app.use(receiver.healthRoutes())`; node:http: `(req, res) => receiver.healthRoutes()(req, res)`.
   */
  healthRoutes(): HealthRoutes;
  /**
   * The delivery inspector, a page over this receiver's store: deliveries by status, event and time, each
   * one's headers and body (signature and secret-looking fields redacted) and attempts, and replay.
   * Nothing serves it until you mount it: `app.use('/_inspector', receiver.inspector())`. It answers this
   * machine only, unless given a `token` that other machines then present.
   */
  inspector(options?: InspectorOptions): InspectorHandler;
  /** The delivery store, for listing and replaying (the CLI uses it). */
  readonly store: DeliveryStore;
  readonly log: Logger;
}

const MOUNT_HELP =
  'The request body was already parsed by another middleware, so its exact bytes (which the signature covers) are gone. ' +
  "Mount the receiver before any body parser: app.post('/webhooks', receiver.middleware()) above app.use(express.json()), " +
  "or give it the raw bytes with express.raw({ type: 'application/json' }).";

/**
 * A verified, deduplicated, durable webhook receiver: each delivery is checked, committed to the store
 * and acked; handlers run afterwards from the store with retries, so nothing acked is lost.
 * @example
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET!, dbPath: './deliveries.db' });
 * receiver.on('ticket.created', async ({ data, log }) => log.info({ ticket: data.id }, 'new ticket'));
 * app.post('/webhooks', receiver.middleware());
 * await receiver.start();
 */
export function createReceiver(options: ReceiverOptions): Receiver {
  const resolved = resolveOptions(options);
  const log = receiverLogger(options.logger);
  const ownsStore = options.store === undefined;
  if (options.store) checkPruneAfter(options.store, resolved.toleranceSeconds);
  const store =
    options.store ??
    createSqliteStore({
      path: options.dbPath!,
      durability: options.durability,
      thread: options.storeThread,
      pruneDoneAfterMs: pruneAfterForTolerance(resolved.toleranceSeconds),
    });
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const registry = new EventHandlerRegistry();
  const errorListeners: ErrorListener[] = [];
  const deps: RunDeliveryDeps = {
    options: resolved,
    store,
    registry,
    errorListeners,
    backoff: createBackoff(options.backoff),
    owner,
    log,
    client: options.client,
    running: new Set(),
  };
  const thresholds = resolveThresholds(options.health);
  const telemetry = receiverTelemetry();
  const readBacklog = backlogReader(store, resolved.now);
  const stopObserving = telemetry?.observeBacklog(readBacklog, resolved.now);
  /** One attempt, under its process span when telemetry is on. */
  const run = (record: DeliveryRecord, runDeps: RunDeliveryDeps = deps) =>
    telemetry ? telemetry.process(record, () => runDelivery(record, runDeps)) : runDelivery(record, runDeps);
  const worker = new Worker({ store, run: (record) => run(record), owner, log, ...resolved });
  let started = false;
  let closing: Promise<void> | undefined;
  let warnedNotStarted = false;

  /** processBeforeResponse: run the handlers now; a failure answers 500 so the service's retry runs them again. */
  async function processNow(deliveryId: string, inserted: boolean, storedId: string): Promise<ReceiverResponse> {
    const record = await store.claimById(storedId, { leaseMs: resolved.leaseMs, owner, now: resolved.now() });
    if (!record) {
      const row = await store.get(storedId);
      if (row?.status === 'done') return accept(deliveryId, true, true);
      if (row?.status === 'dead') return accept(deliveryId, true, false);
      return reject(
        503,
        'DELIVERY_IN_PROGRESS',
        "Another request is running this delivery's handlers; the service will retry",
      );
    }
    const result = await run(record);
    if (result.outcome === 'done') return accept(deliveryId, !inserted, true);
    return reject(
      500,
      'HANDLER_FAILED',
      `The handlers failed (${result.outcome === 'dead' ? 'dead, see onError' : 'will be retried by the service'})`,
    );
  }

  async function afterRecord(deliveryId: string, inserted: boolean, storedId: string): Promise<ReceiverResponse> {
    if (resolved.processBeforeResponse) {
      try {
        return await processNow(deliveryId, inserted, storedId);
      } catch (error) {
        log.error({ err: error, deliveryId }, 'could not run a delivery before responding');
        return reject(503, 'STORE_UNAVAILABLE', 'The delivery could not be processed; the service will retry');
      }
    }
    if (started) worker.wake();
    else if (!warnedNotStarted && inserted) {
      warnedNotStarted = true;
      log.warn('a delivery was stored but receiver.start() has not been called, so no handler runs yet');
    }
    return accept(deliveryId, !inserted);
  }

  /** onResponse as the adapters call it: one that throws is logged, never taking the answer or the process with it. */
  function heard(response: ReceiverResponse, headers: HeaderInput): void {
    telemetry?.answered(response);
    if (!resolved.onResponse) return;
    try {
      resolved.onResponse(response, headers);
    } catch (error) {
      log.error({ err: error }, 'onResponse threw (the answer was given)');
    }
  }

  const adapter: NodeListenerOptions = {
    maxBodyBytes: resolved.maxBodyBytes,
    // One budget for every adapter of this receiver: the bound is on this process's memory.
    budget: new BodyBudget(resolved.maxInFlightBytes),
    bodyTimeoutMs: resolved.bodyTimeoutMs,
    // Every answer of this receiver's adapters is one of its own (a ReceiverResponse), typed wider there.
    // Without onResponse or telemetry the adapters have nothing to call per request.
    onAnswer: resolved.onResponse || telemetry ? (heard as NodeListenerOptions['onAnswer']) : undefined,
    log,
    what: 'delivery',
    mountHelp: MOUNT_HELP,
    unexpected: reject(503, 'STORE_UNAVAILABLE', 'Unexpected receiver failure; the service will retry'),
  };

  const core = createDeliveryHandler({
    options: resolved,
    store,
    log,
    isClosing: () => closing !== undefined,
    afterRecord,
    telemetry,
  });

  const health = () =>
    checkHealth(
      readBacklog,
      thresholds,
      { running: (started || resolved.processBeforeResponse) && !closing, closing: closing !== undefined },
      resolved.now,
      log,
    );

  /** Waits for the running handlers until the deadline, then aborts them: each releases its row as it stops. */
  async function drain(deadlineMs: number): Promise<void> {
    const stopped = worker.stop();
    let timer: NodeJS.Timeout | undefined;
    const late = await Promise.race([
      stopped.then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), deadlineMs))),
    ]);
    clearTimeout(timer);
    if (!late) return;
    log.warn(
      { running: deps.running.size, deadlineMs },
      'close: handlers still running at the deadline; aborting them and releasing their deliveries',
    );
    for (const abort of deps.running)
      abort.abort(
        new ReceiverError('RECEIVER_CLOSED', `The receiver closed after waiting ${deadlineMs} ms for the handlers`),
      );
    await stopped;
  }

  /**
   * A started receiver hands a replayed delivery to its own worker (requeued, due now), so a page click never
   * races the worker for the row; one that is not started runs it here, as `convo-kit replay` does.
   */
  async function replayFromInspector(deliveryId: string): Promise<InspectorReplayOutcome> {
    if (!started || closing) return receiver.replay(deliveryId);
    if ((await store.requeue([deliveryId], resolved.now())) === 1) {
      worker.wake();
      return 'queued';
    }
    return (await store.get(deliveryId)) ? 'busy' : 'missing';
  }

  const listener = nodeListener(core, adapter);
  const receiver: Receiver = {
    on(pattern, handler) {
      registry.add(pattern, handler);
      return receiver;
    },
    onError(listener) {
      if (typeof listener !== 'function')
        throw new InvalidOptionError(`Expected an onError listener function, got ${typeof listener}`);
      errorListeners.push(listener);
      return receiver;
    },
    async handle(input) {
      const response = await core.handleWhole(input);
      heard(response, input.headers);
      return response;
    },
    middleware: () => nodeListener(core, { ...adapter, express: true }) as RequestHandler,
    fetch: fetchHandler(core, adapter),
    listener,
    createServer: (serve = listener) => envelopedServer(serve, log, 'delivery'),
    async start() {
      if (closing) throw new Error('This receiver is closed; create a new one');
      started = true;
      worker.start();
      log.info(
        { owner, concurrency: resolved.concurrency, processBeforeResponse: resolved.processBeforeResponse },
        'receiver started',
      );
    },
    idle: () => worker.idle(),
    async replay(deliveryId, replayOptions = {}) {
      const now = resolved.now();
      if (!(await store.get(deliveryId))) return 'missing';
      const record = await store.claimById(deliveryId, { leaseMs: resolved.leaseMs, owner, now, replay: true });
      if (!record) return 'busy';
      // Only once this receiver holds the row: a journal is never cleared under a worker running it.
      if (replayOptions.rerunSteps === true) await store.clearSteps([deliveryId]);
      // One attempt: with maxAttempts 1 a failure is final, so the outcome is done or dead.
      const result = await run(record, { ...deps, options: { ...resolved, maxAttempts: 1 } });
      return result.outcome === 'done' ? 'done' : 'dead';
    },
    inspector: (inspectorOptions) =>
      createInspector({ store, replay: replayFromInspector, now: resolved.now }, inspectorOptions),
    close(closeOptions) {
      const deadlineMs = integerOption('deadlineMs', closeOptions?.deadlineMs, CLOSE_DEADLINE_MS, { min: 0 });
      closing ??= (async () => {
        stopObserving?.();
        await drain(deadlineMs);
        if (ownsStore) await store.close();
        log.info('receiver closed');
      })();
      return closing;
    },
    health,
    healthRoutes: () => healthRoutes(health),
    store,
    log,
  };
  return receiver;
}
