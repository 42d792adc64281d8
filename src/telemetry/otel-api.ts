import { createRequire } from 'node:module';

/**
 * The part of `@opentelemetry/api` convo-kit calls, written out here: the package is an optional peer
 * dependency, so no declaration we publish may import its types (test/package/declaration-dependencies).
 */
export type Attributes = Record<string, string | number | boolean | undefined>;

export interface SpanContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
}

export interface Span {
  spanContext(): SpanContext;
  setAttribute(key: string, value: string | number | boolean): Span;
  setAttributes(attributes: Attributes): Span;
  setStatus(status: { code: number; message?: string }): Span;
  recordException(exception: unknown): void;
  isRecording(): boolean;
  updateName(name: string): Span;
  end(endTime?: number): void;
}

/** An opaque OpenTelemetry context. */
export type Context = object;

export interface Tracer {
  startSpan(
    name: string,
    options?: { kind?: number; attributes?: Attributes; startTime?: number; links?: { context: SpanContext }[] },
    context?: Context,
  ): Span;
}

export interface Counter {
  add(value: number, attributes?: Attributes): void;
}
export interface Histogram {
  record(value: number, attributes?: Attributes): void;
}
export interface ObservableResult {
  observe(observable: object, value: number, attributes?: Attributes): void;
}
export interface Meter {
  createCounter(name: string, options?: { description?: string; unit?: string }): Counter;
  createHistogram(
    name: string,
    options?: { description?: string; unit?: string; advice?: { explicitBucketBoundaries?: number[] } },
  ): Histogram;
  createObservableGauge(name: string, options?: { description?: string; unit?: string }): object;
  addBatchObservableCallback(callback: (result: ObservableResult) => Promise<void> | void, observables: object[]): void;
  removeBatchObservableCallback(
    callback: (result: ObservableResult) => Promise<void> | void,
    observables: object[],
  ): void;
}

export interface OtelApi {
  trace: {
    getTracer(name: string, version?: string): Tracer;
    getTracerProvider(): object;
    setSpan(context: Context, span: Span): Context;
    getSpan(context: Context): Span | undefined;
    wrapSpanContext(spanContext: SpanContext): Span;
  };
  context: {
    active(): Context;
    with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
      context: Context,
      fn: F,
      thisArg?: ThisParameterType<F>,
      ...args: A
    ): ReturnType<F>;
  };
  metrics: { getMeter(name: string, version?: string): Meter };
  /** The global tracer provider is this proxy; without an SDK its delegate is the API's no-op provider. */
  ProxyTracerProvider: new () => { getDelegate(): object };
  createNoopMeter(): Meter;
  propagation: { inject(context: Context, carrier: Record<string, string>): void };
  ROOT_CONTEXT: Context;
  SpanKind: { INTERNAL: number; SERVER: number; CLIENT: number; PRODUCER: number; CONSUMER: number };
  SpanStatusCode: { UNSET: number; OK: number; ERROR: number };
}

/** The instrumentation scope every tracer and meter of convo-kit is named by. */
export const SCOPE = 'convo_kit';
export const SCOPE_VERSION = '0.1.0';
/** `messaging.system` of the receiver's spans: the semantic conventions let a system not in their list name itself. */
export const MESSAGING_SYSTEM = 'convo_kit';

/** Now, in ms since the epoch with the sub-millisecond part a span's start time can carry. */
export const nowMs = (): number => performance.timeOrigin + performance.now();

let loaded: OtelApi | null | undefined;

/**
 * `@opentelemetry/api` when the application installed it, else null: loaded once, on first use, so an
 * application without it pays one failed resolution and nothing after. Loaded with require: the API keeps
 * its registered providers on a global, so this copy sees the SDK an ESM application registered.
 */
export function otelApi(): OtelApi | null {
  if (loaded === undefined) {
    try {
      loaded = createRequire(import.meta.url)('@opentelemetry/api') as OtelApi;
    } catch {
      loaded = null;
    }
  }
  return loaded;
}

/**
 * `@opentelemetry/api` when an SDK has registered a tracer or meter provider, else null. The receiver and
 * the client ask once, when made: without an SDK they skip every telemetry call on their hot paths, where
 * even the API's no-ops cost (docs/operations.md: register the SDK first).
 */
export function registeredOtelApi(): OtelApi | null {
  const api = otelApi();
  if (!api) return null;
  const provider = api.trace.getTracerProvider() as { getDelegate?: () => object };
  // A fresh proxy's delegate is the API's no-op provider, the one an unregistered global proxy answers.
  const tracing = provider.getDelegate?.() !== new api.ProxyTracerProvider().getDelegate();
  const metering = !(api.metrics.getMeter(SCOPE, SCOPE_VERSION) instanceof api.createNoopMeter().constructor);
  return tracing || metering ? api : null;
}
