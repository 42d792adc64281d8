import { describe, expect, it } from 'vitest';
import { SettingsError } from '../settings/index.js';
import { startTelemetry } from './index.js';

// What the SDK does once registered (metrics on /metrics, spans to a collector, no package loaded when not
// asked): test/starter/in-production.test.ts, in the starters' own processes.
describe('startTelemetry(serviceName, env)', () => {
  it('registers nothing and serves no metrics when no OTEL_* variable asks for it, or OTEL_SDK_DISABLED says so', async () => {
    for (const env of [
      {},
      { OTEL_METRICS_EXPORTER: 'none' },
      { OTEL_METRICS_EXPORTER: ' ' },
      { OTEL_SDK_DISABLED: 'true', OTEL_METRICS_EXPORTER: 'prometheus' },
      // Disabled, the SDK reads no other variable: not even one it would refuse.
      { OTEL_SDK_DISABLED: ' TRUE ', OTEL_METRICS_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1' },
    ]) {
      const telemetry = await startTelemetry('app', env);
      expect(telemetry.metrics, JSON.stringify(env)).toBeUndefined();
      await expect(telemetry.shutdown()).resolves.toBeUndefined();
    }
  });

  it('refuses an OTEL_METRICS_EXPORTER it does not serve, naming the variable and the choices', async () => {
    const error = await startTelemetry('app', { OTEL_METRICS_EXPORTER: 'otlp' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SettingsError);
    expect(error).toMatchObject({
      code: 'SETTINGS_INVALID',
      variables: ['OTEL_METRICS_EXPORTER'],
      message:
        'OTEL_METRICS_EXPORTER: must be one of prometheus, none (metrics are served on /metrics for Prometheus, or a collector scraping it), got "otlp"',
    });
  });
});
