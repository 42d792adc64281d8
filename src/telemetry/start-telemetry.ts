import type { RequestListener } from 'node:http';
import { z } from 'zod';
import { importOptional, type OptionalPackage } from '../internal/optional-package.js';
import { fromEnv, readSettings } from '../settings/read-settings.js';

/** The OpenTelemetry SDK as startTelemetry registered it. */
export interface Telemetry {
  /**
   * Answers GET /metrics in Prometheus text, when OTEL_METRICS_EXPORTER=prometheus: pass it to `serve`'s
   * `metrics`. @default none
   */
  metrics?: RequestListener;
  /** Sends the spans still buffered and stops the SDK: call it after the app closed. */
  shutdown(): Promise<void>;
}

/** The values of OTEL_METRICS_EXPORTER startTelemetry acts on (the OpenTelemetry spec names the variable). */
export const METRICS_EXPORTERS = ['prometheus', 'none'] as const;

const TELEMETRY_SETTINGS = {
  metricsExporter: fromEnv(
    'OTEL_METRICS_EXPORTER',
    z
      .string()
      .trim()
      .pipe(
        z.enum(METRICS_EXPORTERS, {
          error: (issue) =>
            `must be one of ${METRICS_EXPORTERS.join(', ')} (metrics are served on /metrics for Prometheus, or a collector scraping it), got "${String(issue.input)}"`,
        }),
      )
      .default('none'),
  ),
};

/** The SDK's packages: optional peers of convo-kit, and dependencies of the starters that call startTelemetry. */
const sdkPackage = (name: string, neededBy: string): OptionalPackage => ({
  name,
  neededBy,
  install: `npm install ${name}`,
});
const TRACES = 'Traces over OTLP (OTEL_EXPORTER_OTLP_ENDPOINT)';
const PROMETHEUS = 'Prometheus metrics (OTEL_METRICS_EXPORTER=prometheus)';

/**
 * Registers the OpenTelemetry SDK as the environment asks. Call it before the app creates its receiver and
 * client: each takes its meter when it is made.
 * - OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT): spans to that collector over
 *   OTLP/HTTP (the exporter reads the OTEL_EXPORTER_OTLP_* variables itself: headers, timeout);
 * - OTEL_METRICS_EXPORTER=prometheus: the `convo_kit` metrics as a request listener, for `serve`'s `metrics`
 *   on the app's own port (GET /metrics): no second port to open or secure;
 * - OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES, when set, win over `serviceName`; OTEL_SDK_DISABLED=true
 *   turns it all off.
 *
 * With neither exporter asked for, no package of the SDK is loaded: the app runs as it would without it. The
 * SDK's packages are the app's own dependencies (optional peers of convo-kit): @opentelemetry/api and
 * @opentelemetry/resources, plus @opentelemetry/sdk-trace-node and @opentelemetry/exporter-trace-otlp-http for
 * traces, @opentelemetry/sdk-metrics and @opentelemetry/exporter-prometheus for metrics; one asked for and not
 * installed is a MissingPackageError naming it. An OTEL_METRICS_EXPORTER it does not serve is a SettingsError.
 * @example
 * const telemetry = await settingsOrExit(() => startTelemetry('my-app'));
 * const served = await serve(receiver, { port, metrics: telemetry.metrics });
 * closeOnSignals(async () => { await served.close(); await telemetry.shutdown(); });
 */
export async function startTelemetry(serviceName: string, env: NodeJS.ProcessEnv = process.env): Promise<Telemetry> {
  const off = { shutdown: async () => {} };
  // Checked before any other variable: a disabled SDK reads none of them (the spec's booleans ignore case).
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return off;
  const traces = Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  const prometheus = readSettings(TELEMETRY_SETTINGS, env).metricsExporter === 'prometheus';
  if (!traces && !prometheus) return off;
  const neededBy = traces ? TRACES : PROMETHEUS;
  const { metrics } = await importOptional(
    sdkPackage('@opentelemetry/api', neededBy),
    () => import('@opentelemetry/api'),
  );
  const { detectResources, envDetector, resourceFromAttributes } = await importOptional(
    sdkPackage('@opentelemetry/resources', neededBy),
    () => import('@opentelemetry/resources'),
  );
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
    const { BatchSpanProcessor, NodeTracerProvider } = await importOptional(
      sdkPackage('@opentelemetry/sdk-trace-node', TRACES),
      () => import('@opentelemetry/sdk-trace-node'),
    );
    const { OTLPTraceExporter } = await importOptional(
      sdkPackage('@opentelemetry/exporter-trace-otlp-http', TRACES),
      () => import('@opentelemetry/exporter-trace-otlp-http'),
    );
    const provider = new NodeTracerProvider({
      resource,
      spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
    });
    // Also the AsyncLocalStorage context and the W3C `traceparent` propagator: a handler's send joins its delivery's trace.
    provider.register();
    stops.push(() => provider.shutdown());
  }
  if (prometheus) {
    const { MeterProvider } = await importOptional(
      sdkPackage('@opentelemetry/sdk-metrics', PROMETHEUS),
      () => import('@opentelemetry/sdk-metrics'),
    );
    const { PrometheusExporter } = await importOptional(
      sdkPackage('@opentelemetry/exporter-prometheus', PROMETHEUS),
      () => import('@opentelemetry/exporter-prometheus'),
    );
    // A reader only, served by the app's server (`serve`'s `metrics`): no second port to open or secure.
    const exporter = new PrometheusExporter({ preventServerStart: true });
    const provider = new MeterProvider({ resource, readers: [exporter] });
    metrics.setGlobalMeterProvider(provider);
    telemetry.metrics = (req, res) => exporter.getMetricsRequestHandler(req, res);
    stops.push(() => provider.shutdown());
  }
  return telemetry;
}
