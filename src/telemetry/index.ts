// `convo-kit/telemetry`: the OpenTelemetry SDK registered from the standard OTEL_* variables, loaded only when asked.
export { METRICS_EXPORTERS, startTelemetry, type Telemetry } from './start-telemetry.js';
