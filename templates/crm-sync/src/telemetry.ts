import { type RequestListener } from 'node:http';

/** The OpenTelemetry SDK as this app registered it (README, "In production"). */
export interface Telemetry {
  /** Answers GET /metrics in Prometheus text, when OTEL_METRICS_EXPORTER=prometheus. */
  metrics?: RequestListener;
  /** Sends the spans still buffered and stops the SDK: call it after the app closed. */
  shutdown(): Promise<void>;
}

/** The values of OTEL_METRICS_EXPORTER this app acts on (the OpenTelemetry spec names the variable). */
const METRICS_EXPORTERS = ['prometheus', 'none'] as const;

/**
 * Registers the OpenTelemetry SDK as the environment asks, before the app creates its receiver and client
 * (each takes its meter when it is made):
 * - OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT): spans to that collector over
 *   OTLP/HTTP (the exporter reads the OTEL_EXPORTER_OTLP_* variables itself: headers, timeout);
 * - OTEL_METRICS_EXPORTER=prometheus: the `convo_kit` metrics on this app's own port, GET /metrics.
 * With neither set, nothing of the SDK is even loaded: the app runs as it would without it.
 */
export async function startTelemetry(serviceName: string, env: NodeJS.ProcessEnv = process.env): Promise<Telemetry> {
  const traces = Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  const prometheus = metricsExporter(env) === 'prometheus';
  if (env.OTEL_SDK_DISABLED === 'true' || (!traces && !prometheus)) return { shutdown: async () => {} };
  const { metrics } = await import('@opentelemetry/api');
  const { detectResources, envDetector, resourceFromAttributes } = await import('@opentelemetry/resources');
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES, when set, win over the app's own name.
  const resource = resourceFromAttributes({ 'service.name': serviceName }).merge(
    detectResources({ detectors: [envDetector] }),
  );
  const stops: (() => Promise<void>)[] = [];
  const telemetry: Telemetry = {
    async shutdown() {
      await Promise.all(stops.map((stop) => stop()));
    },
  };
  if (traces) {
    const { BatchSpanProcessor, NodeTracerProvider } = await import('@opentelemetry/sdk-trace-node');
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    const provider = new NodeTracerProvider({
      resource,
      spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
    });
    // Also the AsyncLocalStorage context and the W3C `traceparent` propagator: a handler's send joins its delivery's trace.
    provider.register();
    stops.push(() => provider.shutdown());
  }
  if (prometheus) {
    const { MeterProvider } = await import('@opentelemetry/sdk-metrics');
    const { PrometheusExporter } = await import('@opentelemetry/exporter-prometheus');
    // A reader only, served by the app's server (`serve`'s `metrics`): no second port to open or secure.
    const exporter = new PrometheusExporter({ preventServerStart: true });
    const provider = new MeterProvider({ resource, readers: [exporter] });
    metrics.setGlobalMeterProvider(provider);
    telemetry.metrics = (req, res) => exporter.getMetricsRequestHandler(req, res);
    stops.push(() => provider.shutdown());
  }
  return telemetry;
}

/** OTEL_METRICS_EXPORTER, checked here so a value this app does not serve stops it at start, naming the choices. */
function metricsExporter(env: NodeJS.ProcessEnv): (typeof METRICS_EXPORTERS)[number] {
  const value = (env.OTEL_METRICS_EXPORTER ?? 'none').trim() || 'none';
  if ((METRICS_EXPORTERS as readonly string[]).includes(value)) return value as (typeof METRICS_EXPORTERS)[number];
  throw new Error(
    `OTEL_METRICS_EXPORTER must be one of ${METRICS_EXPORTERS.join(', ')} (metrics are served on /metrics for Prometheus, or a collector scraping it), got "${value}"`,
  );
}
