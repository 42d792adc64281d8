import { DURATION_BUCKETS_S, instrumentOptions, METRICS } from './metric-names.js';
import { registeredOtelApi, SCOPE, SCOPE_VERSION } from './otel-api.js';

/** How a call ended: the last answer's status, or the error that ended it; and how many attempts it took. */
export interface CallResult {
  status?: number;
  attempts: number;
  error?: unknown;
}

/** One client call's HTTP client span. */
export interface CallSpan {
  /** Adds the W3C `traceparent` (and whatever else the application's propagator sends) to the request. */
  inject(headers: Record<string, string>): void;
  /** Runs the call under this span, so a fetch instrumentation nests its attempts in it. */
  run<T>(fn: () => T): T;
  end(result: CallResult): void;
}

export interface ClientTelemetry {
  start(endpoint: string, method: string, path: string, url: URL): CallSpan;
}

/** The contract's `/v1/messages/:id` as the semantic conventions write a route template: `/v1/messages/{id}`. */
export const urlTemplate = (path: string) => path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');

/** `error.type`: the status of an error answer, else the error's code or class. */
function errorType(result: CallResult): string | undefined {
  if (result.status !== undefined && result.status >= 400) return String(result.status);
  if (result.error === undefined) return undefined;
  const error = result.error as { code?: unknown; name?: unknown };
  return typeof error.code === 'string' ? error.code : typeof error.name === 'string' ? error.name : 'Error';
}

const W3C_TRACEPARENT = 'traceparent';
const INVALID_TRACE_ID = '0'.repeat(32);

/**
 * HTTP client spans and metrics for the client's calls, or undefined when the application has not installed
 * `@opentelemetry/api`. Taken when the client is created: register the SDK first.
 */
export function clientTelemetry(): ClientTelemetry | undefined {
  const api = registeredOtelApi();
  if (!api) return undefined;
  const tracer = api.trace.getTracer(SCOPE, SCOPE_VERSION);
  const meter = api.metrics.getMeter(SCOPE, SCOPE_VERSION);
  const requests = meter.createCounter(METRICS.clientRequests.name, instrumentOptions(METRICS.clientRequests));
  const retries = meter.createCounter(METRICS.clientRetries.name, instrumentOptions(METRICS.clientRetries));
  const duration = meter.createHistogram(METRICS.clientDuration.name, {
    ...instrumentOptions(METRICS.clientDuration),
    advice: { explicitBucketBoundaries: DURATION_BUCKETS_S },
  });

  return {
    start(endpoint, method, path, url) {
      const template = urlTemplate(path);
      const span = tracer.startSpan(`${method} ${template}`, {
        kind: api.SpanKind.CLIENT,
        attributes: {
          'http.request.method': method,
          'url.template': template,
          // Without the query: a search's text (a phone number, a name) is the user's data, not the route's.
          'url.full': `${url.origin}${url.pathname}`,
          'server.address': url.hostname,
          'server.port': Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
          'convo_kit.client.endpoint': endpoint,
        },
      });
      const context = api.trace.setSpan(api.context.active(), span);
      const started = performance.now();
      return {
        inject(headers) {
          api.propagation.inject(context, headers);
          const { traceId, spanId, traceFlags } = span.spanContext();
          // The service reads W3C traceparent: sent even where the application set no propagator.
          if (headers[W3C_TRACEPARENT] === undefined && traceId !== INVALID_TRACE_ID)
            headers[W3C_TRACEPARENT] = `00-${traceId}-${spanId}-${traceFlags.toString(16).padStart(2, '0')}`;
        },
        run: (fn) => api.context.with(context, fn),
        end(result) {
          const type = errorType(result);
          const labels = {
            'url.template': template,
            'http.request.method': method,
            ...(result.status !== undefined && { 'http.response.status_code': result.status }),
            ...(type !== undefined && { 'error.type': type }),
          };
          requests.add(1, labels);
          if (result.attempts > 1) retries.add(result.attempts - 1, { 'url.template': template });
          duration.record((performance.now() - started) / 1000, labels);
          span.setAttributes({
            ...labels,
            ...(result.attempts > 1 && { 'http.request.resend_count': result.attempts - 1 }),
          });
          if (type !== undefined) span.setStatus({ code: api.SpanStatusCode.ERROR, message: type });
          if (result.error !== undefined) span.recordException(result.error);
          span.end();
        },
      };
    },
  };
}
