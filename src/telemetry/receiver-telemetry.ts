import { isEventName } from '../events/index.js';
import type { HttpAnswer } from '../internal/http-answer.js';
import type { Backlog, DeliveryRecord } from '../store/index.js';
import { DURATION_BUCKETS_S, instrumentOptions, METRICS, type MetricSpec } from './metric-names.js';
import { MESSAGING_SYSTEM, registeredOtelApi, SCOPE, SCOPE_VERSION, type SpanContext } from './otel-api.js';
import { TraceOrigins } from './trace-origins.js';

/** How a delivery's answer counts: taken in, a duplicate of one taken in before, or refused with a code. */
export type DeliveryOutcome = 'acked' | 'duplicate' | 'refused';

/** How one attempt's run ended, as the receiver counts it. */
export interface RunOutcome {
  outcome: 'done' | 'failed' | 'dead';
  /** The ReceiverError code of a run that did not end done. */
  code?: string;
}

/** As the metrics count a run: a failure that was a lease lost, or a release at close, is named apart. */
const runLabel = ({ outcome, code }: RunOutcome) =>
  code === 'LEASE_LOST' ? 'lost' : code === 'RECEIVER_CLOSED' ? 'released' : outcome;

/** The receive span of one request: the rest of the request runs under `context`. */
export interface ReceiveSpan {
  /** Runs the rest of the request under this span (a handler run before the answer is its child). */
  run<T>(fn: () => T): T;
  /** The body named its event: the span takes its name and destination. */
  named(event: string): void;
  /** The row was stored: the worker that runs it continues this trace. */
  stored(deliveryId: string): void;
  end(answer: HttpAnswer): void;
}

export interface ReceiverTelemetry {
  /** Counts one answer of the receiver, whichever adapter gave it. */
  answered(answer: HttpAnswer): void;
  /** Starts the receive span of a request whose headers arrived at `startTime` (ms since the epoch). */
  receive(startTime: number, deliveryId: string | undefined): ReceiveSpan;
  /** Runs one attempt under its process span, a child of the receive span when this process took it in. */
  process<R extends RunOutcome>(record: DeliveryRecord, run: () => Promise<R>): Promise<R>;
  /** Reports the backlog gauges from `read` at each collection; answers a function that stops. */
  observeBacklog(read: () => Promise<Backlog | undefined>, now: () => number): () => void;
}

function outcomeOf(answer: HttpAnswer): { outcome: DeliveryOutcome; reason?: string } {
  const body = answer.body as { duplicate?: boolean; error?: { code?: string } } | undefined;
  if (answer.status === 200) return { outcome: body?.duplicate ? 'duplicate' : 'acked' };
  return { outcome: 'refused', reason: body?.error?.code ?? `HTTP_${answer.status}` };
}

/** A metric's `event`: one of the 14 names, or `unknown` (an event this version does not know), never unbounded. */
const eventLabel = (event: string) => (isEventName(event) ? event : 'unknown');

/**
 * The receiver's spans and metrics through `@opentelemetry/api`, or undefined when the application has not
 * installed it or registered no SDK yet: the receiver then skips every call here. Asked once, when the
 * receiver is made, so register the SDK before creating the receiver (docs/operations.md).
 */
export function receiverTelemetry(): ReceiverTelemetry | undefined {
  const api = registeredOtelApi();
  if (!api) return undefined;
  const tracer = api.trace.getTracer(SCOPE, SCOPE_VERSION);
  const meter = api.metrics.getMeter(SCOPE, SCOPE_VERSION);
  const counter = (m: MetricSpec) => meter.createCounter(m.name, instrumentOptions(m));
  const deliveries = counter(METRICS.receiverDeliveries);
  const runs = counter(METRICS.handlerRuns);
  const recoveries = counter(METRICS.leaseRecoveries);
  const duration = meter.createHistogram(METRICS.handlerDuration.name, {
    ...instrumentOptions(METRICS.handlerDuration),
    advice: { explicitBucketBoundaries: DURATION_BUCKETS_S },
  });
  const origins = new TraceOrigins();
  const messaging = { 'messaging.system': MESSAGING_SYSTEM };

  function receive(startTime: number, deliveryId: string | undefined): ReceiveSpan {
    const span = tracer.startSpan('receive', {
      kind: api!.SpanKind.SERVER,
      startTime,
      attributes: {
        ...messaging,
        'messaging.operation.type': 'receive',
        'messaging.operation.name': 'receive',
        'messaging.message.id': deliveryId,
      },
    });
    return {
      run: (fn) => api!.context.with(api!.trace.setSpan(api!.context.active(), span), fn),
      named(event) {
        span.updateName(`receive ${event}`);
        span.setAttribute('messaging.destination.name', event);
      },
      stored: (id) => origins.remember(id, span),
      end(answer) {
        const { outcome, reason } = outcomeOf(answer);
        span.setAttributes({
          'convo_kit.delivery.outcome': outcome,
          'http.response.status_code': answer.status,
          'error.type': reason,
        });
        // As an HTTP server span: a refusal the sender caused (4xx) is no error of ours; a 5xx is.
        if (answer.status >= 500) span.setStatus({ code: api!.SpanStatusCode.ERROR, message: reason });
        span.end();
      },
    };
  }

  async function process<R extends RunOutcome>(record: DeliveryRecord, run: () => Promise<R>): Promise<R> {
    const origin: SpanContext | undefined = origins.get(record.id);
    const parent = origin
      ? api!.trace.setSpan(api!.ROOT_CONTEXT, api!.trace.wrapSpanContext(origin))
      : api!.context.active();
    const span = tracer.startSpan(
      `process ${record.event}`,
      {
        kind: api!.SpanKind.CONSUMER,
        attributes: {
          ...messaging,
          'messaging.operation.type': 'process',
          'messaging.operation.name': 'process',
          'messaging.message.id': record.id,
          'messaging.destination.name': record.event,
          'convo_kit.delivery.attempt': record.attempts,
          'convo_kit.lease.recovered': record.recovered === true,
        },
      },
      parent,
    );
    const started = performance.now();
    if (record.recovered) recoveries.add(1, { event: eventLabel(record.event) });
    let result: R;
    try {
      result = await api!.context.with(api!.trace.setSpan(parent, span), run);
    } catch (error) {
      span.recordException(error);
      span.setStatus({ code: api!.SpanStatusCode.ERROR });
      span.end();
      throw error;
    }
    const outcome = runLabel(result);
    const labels = { outcome, event: eventLabel(record.event) };
    runs.add(1, labels);
    duration.record((performance.now() - started) / 1000, labels);
    span.setAttributes({ 'convo_kit.delivery.outcome': outcome, 'error.type': result.code });
    if (outcome !== 'done' && outcome !== 'released')
      span.setStatus({ code: api!.SpanStatusCode.ERROR, message: result.code });
    span.end();
    if (result.outcome === 'done' || result.outcome === 'dead') origins.forget(record.id);
    return result;
  }

  function observeBacklog(read: () => Promise<Backlog | undefined>, now: () => number): () => void {
    const gauge = (m: MetricSpec) => meter.createObservableGauge(m.name, instrumentOptions(m));
    const backlog = gauge(METRICS.backlog);
    const oldest = gauge(METRICS.oldestPendingAge);
    const dead = gauge(METRICS.dead);
    const callback = async (result: { observe(o: object, value: number, a?: Record<string, string>): void }) => {
      const b = await read();
      if (!b) return;
      result.observe(backlog, b.pending, { status: 'pending' });
      result.observe(backlog, b.retrying, { status: 'retrying' });
      result.observe(backlog, b.processing, { status: 'processing' });
      result.observe(oldest, b.oldestReceivedAt === null ? 0 : Math.max(0, now() - b.oldestReceivedAt) / 1000);
      result.observe(dead, b.dead);
    };
    const observables = [backlog, oldest, dead];
    meter.addBatchObservableCallback(callback, observables);
    return () => meter.removeBatchObservableCallback(callback, observables);
  }

  return {
    answered(answer) {
      const { outcome, reason } = outcomeOf(answer);
      deliveries.add(1, reason ? { outcome, reason } : { outcome });
    },
    receive,
    process,
    observeBacklog,
  };
}
