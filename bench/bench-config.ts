import { parseArgs } from 'node:util';

/** The four servers the issue asks to compare, in one run. */
export const SERVER_KINDS = ['express + receiver', 'bare express', 'node:http + receiver', 'bare node:http'] as const;
export type ServerKind = (typeof SERVER_KINDS)[number];

/** Where a receiver keeps its deliveries: SQLite at either durability, or the shared PostgreSQL store. */
export const BENCH_STORES = ['sqlite full', 'sqlite normal', 'postgres'] as const;
export type BenchStore = (typeof BENCH_STORES)[number];

export const BENCH_SECRET = 'whsec_benchmark_secret_0123456789abcdef';
/** Handlers sleep so that the ack path, not the handler, is what is measured. */
export const HANDLER_SLEEP_MS = 50;
export const CONNECTIONS = 50;
export const BODY_BYTES = 1024;
/** Seconds per measured run; 9 targets x ROUNDS runs (plus a warm-up each) keep `npm run bench` under 3 minutes. */
export const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
export const WARMUP_SECONDS = 2;
/** Targets are measured in turn, round after round, and the median is kept: a shared machine's load drifts. */
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

/** The PostgreSQL server of the shared-inbox rows; each run gets a schema of its own, dropped at the end. */
export const PG_URL = process.env.CONVO_KIT_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** Receiver processes sharing one PostgreSQL inbox, one run each. */
export const PG_PROCESS_COUNTS = [1, 2, 4] as const;
/**
 * Handlers running at once, in all the processes of a run (the receiver's default for one), split over
 * the processes (10, 5 and 3 each): every run handles about 200 deliveries/s (240 with 4 x 3), so a
 * second process is measured for what it does to acking, not for the handler capacity it also brings.
 */
export const HANDLERS_IN_ALL = 10;

/** What a bench server answers to 'stats' (bench-server.ts), since its last 'reset'. */
export interface ServerStats {
  /** All its threads. */
  cpuMicros: number;
  /** Its main thread alone (the event loop); undefined where /proc is not there to read. */
  loopCpuMicros: number | undefined;
  requests: number;
  maxRssMiB: number;
}

/**
 * The deliveries' ids: `random` (the default) as the service makes them, or `sequential` (a counter), which
 * spares the store's indexes the random writes real ids cost (README "Durability").
 */
export type IdOrder = 'random' | 'sequential';
export const BENCH_IDS = benchIds(process.env.BENCH_IDS);
function benchIds(value: string | undefined): IdOrder {
  if (value === undefined || value === '' || value === 'random') return 'random';
  if (value === 'sequential') return value;
  throw new Error(`BENCH_IDS must be random or sequential, got ${JSON.stringify(value)}`);
}

/** `BENCH_SQLITE_THREAD=true` runs the receivers' SQLite store on a thread of its own (`thread: true`). */
export const SQLITE_THREAD = process.env.BENCH_SQLITE_THREAD === 'true';

/**
 * The parts of the benchmark, each runnable alone (`npm run bench -- --only postgres`, or
 * `BENCH_ONLY=postgres`): `commit` the SQLite commit costs and what random ids cost it, `sqlite` the four servers at both
 * durabilities, `postgres` 1, 2 and 4 receivers on PostgreSQL next to bare Express and one receiver on
 * SQLite (its baselines, measured in the same run), `steps` what a journaled step costs on each store and
 * what ctx.client adds to a bare client call to the emulator, `otel` what OpenTelemetry adds to the ack path
 * (not installed, installed without an SDK, an SDK registered).
 */
export const BENCH_PARTS = ['commit', 'steps', 'otel', 'sqlite', 'postgres'] as const;
export type BenchPart = (typeof BENCH_PARTS)[number];

export function selectedParts(argv: string[] = process.argv.slice(2)): Set<BenchPart> {
  const { values } = parseArgs({ args: argv, options: { only: { type: 'string' } } });
  const only = values.only ?? process.env.BENCH_ONLY;
  if (only === undefined || only === '') return new Set(BENCH_PARTS);
  const parts = only.split(',').map((p) => p.trim());
  const unknown = parts.filter((p) => !(BENCH_PARTS as readonly string[]).includes(p));
  if (unknown.length > 0)
    throw new TypeError(`Expected --only to list parts of ${BENCH_PARTS.join(', ')}, got \`${unknown.join(', ')}\``);
  return new Set(parts as BenchPart[]);
}
