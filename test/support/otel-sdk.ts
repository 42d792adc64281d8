import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import {
  DataPointType,
  MeterProvider,
  MetricReader,
  type HistogramMetricData,
  type MetricData,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';

/** A reader that exports nowhere: the test collects from it when it wants the numbers. */
class CollectingReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

export interface OtelSdk {
  spans: InMemorySpanExporter;
  /** Every metric of the `convo_kit` meter as it stands now (cumulative). */
  collect(): Promise<MetricData[]>;
  /** Serves GET /metrics in Prometheus text (`@opentelemetry/exporter-prometheus`'s own handler). */
  prometheus: PrometheusExporter;
}

let registered: OtelSdk | undefined;

/**
 * Registers the real OpenTelemetry SDK as an application would (tracer and meter providers, an
 * AsyncLocalStorage context manager, the W3C propagator), once per test file's process, before any
 * receiver or client is created.
 */
export function registerOtelSdk(): OtelSdk {
  if (registered) return registered;
  const spans = new InMemorySpanExporter();
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const reader = new CollectingReader();
  const prometheus = new PrometheusExporter({ preventServerStart: true });
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader, prometheus] }));
  registered = {
    spans,
    prometheus,
    async collect() {
      const { resourceMetrics } = await reader.collect();
      return resourceMetrics.scopeMetrics.filter((s) => s.scope.name === 'convo_kit').flatMap((s) => s.metrics);
    },
  };
  return registered;
}

/**
 * The sum of a counter's points (or a histogram's counts, or a gauge's values) whose attributes include
 * `where`; 0 when there is none.
 */
export function metricValue(all: MetricData[], name: string, where: Record<string, string | number> = {}): number {
  const metric = all.find((m) => m.descriptor.name === name);
  if (!metric) return 0;
  let total = 0;
  for (const point of metric.dataPoints) {
    if (!Object.entries(where).every(([k, v]) => point.attributes[k] === v)) continue;
    total +=
      metric.dataPointType === DataPointType.HISTOGRAM
        ? (point.value as HistogramMetricData['dataPoints'][number]['value']).count
        : (point.value as number);
  }
  return total;
}

/** The finished spans whose name starts with `prefix`. */
export const spansNamed = (spans: InMemorySpanExporter, prefix: string): ReadableSpan[] =>
  spans.getFinishedSpans().filter((s) => s.name.startsWith(prefix));
