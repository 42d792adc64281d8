import type { Logger } from 'pino';
import { z } from 'zod';
import { decodeBody } from './decode-body.js';
import { Envelope, eventSchemas, isEventName } from '../events/index.js';
import type { DeliveryRecord, DeliveryStore } from '../store/index.js';
import type { ErrorListener, EventContext } from './event-handler.js';
import type { EventHandlerRegistry } from './event-handler-registry.js';
import { isPermanent, ReceiverError, type ReceiverErrorCode } from './receiver-error.js';
import { knownSecrets, recordedFailure } from './recorded-failure.js';
import type { ResolvedOptions } from './receiver-options.js';
import { renewLease } from './renew-lease.js';
import { issuesText } from '../internal/issue-text.js';
import type { Client } from '../client/create-client.js';
import { stepClient, type StepClient } from './step-client.js';
import { StepRunner } from './step-runner.js';

export interface RunDeliveryDeps {
  options: ResolvedOptions;
  store: DeliveryStore;
  registry: EventHandlerRegistry;
  errorListeners: readonly ErrorListener[];
  backoff: (attempt: number) => number;
  owner: string;
  log: Logger;
  /** The receiver's `client`, bound to each event as `ctx.client`. */
  client?: Client;
  /** The abort of each attempt running now: receiver.close() aborts them when its deadline passes. */
  running: Set<AbortController>;
}

export type RunDeliveryResult =
  | { outcome: 'done'; code?: undefined }
  | { outcome: 'dead'; code: ReceiverErrorCode }
  | { outcome: 'failed'; retryAt: number; code: ReceiverErrorCode };

/** At most this many schema issues in a log line; the message already names the first five. */
const LOGGED_ISSUES = 20;

/**
 * What the log says of a failure, given its redacted copy (recorded-failure.ts). A schema failure's cause is a
 * ZodError whose message is its issues as pretty JSON, and whose stack is zod's: logged whole, one dead
 * delivery took about 8 KB. Its issues go in once, compactly; the error still reaches onError listeners
 * with its cause.
 */
function logged(failure: ReceiverError, shown: ReceiverError): Record<string, unknown> {
  if (!(failure.cause instanceof z.core.$ZodError)) return { err: shown };
  const { issues } = failure.cause;
  return {
    // The same error without its cause, so the log's error serializer leaves the ZodError out.
    err: Object.assign(new ReceiverError(shown.code, shown.message), { stack: shown.stack }),
    issues: issues.slice(0, LOGGED_ISSUES).map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
    ...(issues.length > LOGGED_ISSUES && { moreIssues: issues.length - LOGGED_ISSUES }),
  };
}

type ContextBase = Omit<
  EventContext,
  'known' | 'event' | 'data' | 'envelope' | 'eventId' | 'step' | 'transaction' | 'client'
>;

/** A context before withSteps gives it its steps. */
type StepLessContext = Omit<EventContext, 'step' | 'transaction' | 'client'>;

/** Parses the stored body and applies the event's schema; a failure here is permanent (dead at once). */
function buildContext(record: DeliveryRecord, base: ContextBase): StepLessContext {
  let envelope: Envelope;
  try {
    envelope = Envelope.parse(JSON.parse(decodeBody(record.body)));
  } catch (error) {
    throw new ReceiverError('STORED_BODY_UNREADABLE', `Stored body of ${record.id} is not an envelope`, {
      cause: error,
    });
  }
  const event = envelope.event;
  const ids = { ...base, envelope, eventId: envelope.id ?? null };
  if (!isEventName(event)) return { ...ids, known: false, event, data: envelope.data };
  const data = eventSchemas[event].safeParse(envelope.data);
  if (!data.success) {
    throw new ReceiverError(
      'EVENT_SCHEMA_MISMATCH',
      `${event} data does not match its schema: ${issuesText(data.error.issues, 'data')}`,
      { cause: data.error },
    );
  }
  return { ...ids, known: true, event, data: data.data } as StepLessContext;
}

const NO_CLIENT =
  'ctx.client needs the receiver to have a client: createReceiver({ …, client: createClient({ apiKey }) }) (the `client` option)';

/**
 * Gives the context its steps, one runner for all the handlers of this attempt: `step` and `transaction`
 * bound (handlers destructure them), `client` built on first use (most handlers never touch it).
 */
function withSteps(context: StepLessContext, record: DeliveryRecord, deps: RunDeliveryDeps): EventContext {
  const runner = new StepRunner({
    store: deps.store,
    eventKey: context.eventId ?? record.id,
    deliveryId: record.id,
    attempt: record.attempts,
    now: deps.options.now,
    secrets: () => knownSecrets(deps.options.secrets),
  });
  let client: StepClient | undefined;
  return Object.defineProperties(context as EventContext, {
    step: { value: runner.step.bind(runner), enumerable: true },
    transaction: { value: runner.transaction.bind(runner), enumerable: true },
    client: {
      enumerable: false,
      get: () => {
        if (!deps.client) throw new ReceiverError('CLIENT_NOT_CONFIGURED', NO_CLIENT);
        return (client ??= stepClient(deps.client, runner, context.signal));
      },
    },
  });
}

/**
 * Runs every matching handler in registration order, all of them within one timeout. Aborting `abort`
 * (the timeout, or a lease lost to another worker) ends the attempt with the abort's reason.
 */
async function runHandlers(
  context: EventContext,
  handlers: ((c: EventContext) => unknown)[],
  timeoutMs: number,
  abort: AbortController,
): Promise<void> {
  const timer = setTimeout(() => {
    abort.abort(
      new ReceiverError(
        'HANDLER_TIMEOUT',
        `Handlers for ${context.event} took longer than ${timeoutMs} ms (handlerTimeoutMs)`,
      ),
    );
  }, timeoutMs);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, rejectAborted) => {
    onAbort = () => rejectAborted(abort.signal.reason);
    abort.signal.addEventListener('abort', onAbort, { once: true });
  });
  const run = (async () => {
    for (const handler of handlers) await handler(context);
  })();
  try {
    await Promise.race([run, aborted]);
  } catch (error) {
    if (error instanceof ReceiverError) throw error;
    throw new ReceiverError(
      'HANDLER_FAILED',
      `A handler for ${context.event} threw: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  } finally {
    clearTimeout(timer);
    abort.signal.removeEventListener('abort', onAbort!);
    // A handler that ignores the signal keeps running after a timeout; its result no longer counts.
    run.catch(() => undefined);
  }
}

/**
 * One attempt at one claimed delivery: build the typed context, run the handlers, then settle the row:
 * done, failed with a retry time (backoff with jitter), or dead (permanent failure or attempts used up),
 * in which case `onError` hears of it. Never throws: a store failure leaves the lease to expire and retry.
 */
export async function runDelivery(record: DeliveryRecord, deps: RunDeliveryDeps): Promise<RunDeliveryResult> {
  const log = deps.log.child({ deliveryId: record.id, event: record.event, attempt: record.attempts });
  const abort = new AbortController();
  deps.running.add(abort);
  try {
    return await attemptDelivery(record, deps, log, abort);
  } finally {
    deps.running.delete(abort);
  }
}

async function attemptDelivery(
  record: DeliveryRecord,
  deps: RunDeliveryDeps,
  log: Logger,
  abort: AbortController,
): Promise<RunDeliveryResult> {
  const { options, store, owner } = deps;
  const attempt = record.attempts;
  try {
    if (attempt > options.maxAttempts) {
      throw new ReceiverError(
        'ATTEMPTS_EXHAUSTED',
        `Gave up after ${attempt - 1} attempts; the last one never finished (the process stopped during it)`,
      );
    }
    const context = withSteps(
      buildContext(record, {
        deliveryId: record.id,
        attempt,
        receivedAt: new Date(record.receivedAt),
        log,
        signal: abort.signal,
      }),
      record,
      deps,
    );
    const stopRenewing = renewLease({
      store,
      id: record.id,
      owner,
      leaseMs: options.leaseMs,
      now: options.now,
      log,
      onLost: () =>
        abort.abort(
          new ReceiverError('LEASE_LOST', `The lease on ${record.id} lapsed and another worker took it; stopped here`),
        ),
    });
    try {
      await runHandlers(context, deps.registry.matching(record.event), options.handlerTimeoutMs, abort);
    } finally {
      stopRenewing();
    }
  } catch (error) {
    const failure =
      error instanceof ReceiverError ? error : new ReceiverError('HANDLER_FAILED', String(error), { cause: error });
    if (failure.code === 'LEASE_LOST') {
      // The row is the other worker's now: nothing here may settle it.
      log.warn({ err: failure }, failure.message);
      return { outcome: 'failed', retryAt: options.now(), code: failure.code };
    }
    // A release at close is no verdict on the delivery: due at once, for this receiver's successor.
    const released = failure.code === 'RECEIVER_CLOSED';
    const dead =
      !released && (isPermanent(failure) || failure.code === 'ATTEMPTS_EXHAUSTED' || attempt >= options.maxAttempts);
    // The store and the log get the message with its secrets hidden: the store never holds them.
    const shown = recordedFailure(failure, await knownSecrets(options.secrets));
    const recorded = shown.message;
    const now = options.now();
    const retryAt = released ? now : now + deps.backoff(attempt);
    try {
      await store.fail(
        record.id,
        owner,
        dead ? { error: recorded, dead: true, now } : { error: recorded, retryAt, now },
      );
    } catch (storeError) {
      log.error(
        { err: storeError },
        'could not record a failed attempt; the lease will expire and the delivery run again',
      );
    }
    if (!dead) {
      log.warn(
        { ...logged(failure, shown), retryInMs: retryAt - now },
        released ? `attempt ${attempt} released at close; due again now` : `attempt ${attempt} failed; retrying`,
      );
      return { outcome: 'failed', retryAt, code: failure.code };
    }
    log.error(logged(failure, shown), `delivery is dead after attempt ${attempt}: ${recorded}`);
    for (const listener of deps.errorListeners) {
      try {
        await listener(failure, { deliveryId: record.id, event: record.event, attempt });
      } catch (listenerError) {
        log.error({ err: listenerError }, 'an onError listener threw');
      }
    }
    return { outcome: 'dead', code: failure.code };
  }
  try {
    if (!(await store.complete(record.id, owner, options.now())))
      log.warn('finished, but the lease had passed to another worker');
  } catch (storeError) {
    log.error({ err: storeError }, 'could not mark a delivery done; it will run again when its lease expires');
  }
  log.debug('delivery done');
  return { outcome: 'done' };
}
