// One process of the `otel` part: the receiver's ack path (receiver.handle: verify, store, answer) for
// BENCH_OTEL_ACKS signed deliveries, on a SQLite file at `normal` durability so the fsync does not drown
// the difference. argv: <sqlite file> <mode>: `absent` (run with --import bench/hide-otel-api.ts),
// `api` (@opentelemetry/api installed, no SDK), `sdk` (the SDK registered: tracer with a batch processor,
// meter with a reader). Prints one JSON line: CPU and wall µs per ack.
import { pino } from 'pino';
import { createReceiver } from '../src/receiver/index.js';
import { signedDelivery } from '../src/testing/index.js';
import { BENCH_SECRET } from './bench-config.js';

const [path, mode] = process.argv.slice(2);
const ACKS = Number(process.env.BENCH_OTEL_ACKS ?? 3000);

// Loaded only in `sdk` mode: in `absent` mode the API cannot be resolved at all.
if (mode === 'sdk') {
  const { metrics, trace } = await import('@opentelemetry/api');
  const { MeterProvider, MetricReader } = await import('@opentelemetry/sdk-metrics');
  const { BasicTracerProvider, BatchSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  class DroppingReader extends MetricReader {
    protected async onForceFlush(): Promise<void> {}
    protected async onShutdown(): Promise<void> {}
  }
  // Spans are batched and exported to nowhere: the cost measured is the instrumentation's, not a network's.
  const dropping = {
    export: (_spans: unknown, done: (r: { code: 0 }) => void) => done({ code: 0 }),
    shutdown: async () => undefined,
  };
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropping)] }));
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [new DroppingReader()] }));
}
const receiver = createReceiver({
  secret: BENCH_SECRET,
  dbPath: path!,
  durability: 'normal',
  logger: pino({ level: 'silent' }),
});
const deliveries = Array.from({ length: ACKS + 200 }, () =>
  signedDelivery({ secret: BENCH_SECRET, event: 'message.received' }),
);
const ack = async (d: (typeof deliveries)[number]) => {
  const answer = await receiver.handle({ headers: d.headers, rawBody: d.body });
  if (answer.status !== 200) throw new Error(`ack answered ${answer.status}`);
};
for (const d of deliveries.slice(0, 200)) await ack(d); // warm-up
const cpu = process.cpuUsage();
const started = performance.now();
for (const d of deliveries.slice(200)) await ack(d);
const wall = performance.now() - started;
const used = process.cpuUsage(cpu);
await receiver.close();
process.stdout.write(
  `${JSON.stringify({ mode, cpuUs: (used.user + used.system) / ACKS, wallUs: (wall * 1000) / ACKS })}\n`,
);
