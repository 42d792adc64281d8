import type { IncomingMessage, ServerResponse } from 'node:http';
import { instrumentOptions, METRICS } from './metric-names.js';
import { otelApi, SCOPE, SCOPE_VERSION, type SpanContext } from './otel-api.js';

/** How one webhook attempt of the emulator ended: delivered, failed with a retry to come, or failed for good. */
export type WebhookAttemptOutcome = 'delivered' | 'retrying' | 'failed';

export interface EmulatorTelemetry {
  webhookAttempt(endpointId: string, outcome: WebhookAttemptOutcome): void;
  /** Express middleware: a SERVER span per API request, the child of the caller's W3C `traceparent`. */
  serverSpans(req: RoutedRequest, res: ServerResponse, next: () => void): void;
}

/** A request as Express leaves it once routed: the matched route's path (one, or the first of a list). */
type RoutedRequest = IncomingMessage & { route?: { path?: unknown }; baseUrl?: string };

function routeOf(req: RoutedRequest): string | undefined {
  const path = Array.isArray(req.route?.path) ? (req.route.path as unknown[])[0] : req.route?.path;
  return typeof path === 'string' ? `${req.baseUrl ?? ''}${path}` : undefined;
}

/** W3C Trace Context: version, trace id, parent id, flags (a later version may append fields). */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-|$)/;
const ALL_ZERO = /^0+$/;

/** The caller's span from its `traceparent`, or undefined when absent or not of the W3C form. */
export function parseTraceparent(value: string | string[] | undefined): (SpanContext & { isRemote: true }) | undefined {
  const match = typeof value === 'string' ? TRACEPARENT.exec(value.trim()) : null;
  if (!match || match[1] === 'ff' || ALL_ZERO.test(match[2]!) || ALL_ZERO.test(match[3]!)) return undefined;
  return { traceId: match[2]!, spanId: match[3]!, traceFlags: parseInt(match[4]!, 16), isRemote: true };
}

/**
 * The emulator's spans and metrics, or undefined when `@opentelemetry/api` is not installed. Its server span
 * continues the trace of the client call that reached it, so a handler's send, the delivery that caused
 * it and what the emulator did with it read as one trace.
 */
export function emulatorTelemetry(): EmulatorTelemetry | undefined {
  const api = otelApi();
  if (!api) return undefined;
  const tracer = api.trace.getTracer(SCOPE, SCOPE_VERSION);
  const meter = api.metrics.getMeter(SCOPE, SCOPE_VERSION);
  const attempts = meter.createCounter(
    METRICS.emulatorWebhookDeliveries.name,
    instrumentOptions(METRICS.emulatorWebhookDeliveries),
  );
  return {
    webhookAttempt: (endpointId, outcome) => attempts.add(1, { endpoint: endpointId, outcome }),
    serverSpans(req, res, next) {
      const caller = parseTraceparent(req.headers.traceparent);
      const parent = caller ? api.trace.setSpan(api.ROOT_CONTEXT, api.trace.wrapSpanContext(caller)) : api.ROOT_CONTEXT;
      const method = req.method ?? 'GET';
      const span = tracer.startSpan(
        method,
        {
          kind: api.SpanKind.SERVER,
          attributes: { 'http.request.method': method, 'url.path': (req.url ?? '/').split('?', 1)[0] },
        },
        parent,
      );
      res.once('finish', () => {
        // Express has matched the route by now: its template names the span (`POST /v1/messages`).
        const route = routeOf(req);
        if (route) span.updateName(`${method} ${route}`).setAttribute('http.route', route);
        span.setAttribute('http.response.status_code', res.statusCode);
        if (res.statusCode >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR });
        span.end();
      });
      api.context.with(api.trace.setSpan(parent, span), next);
    },
  };
}
