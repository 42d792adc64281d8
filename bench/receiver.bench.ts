// `npm run bench`: signed unique 1 KiB deliveries, 50 connections (wrk, else autocannon), against servers each in its own
// process: receiver in Express, bare Express, receiver on node:http, bare node:http, the two receivers
// with the other durability, and 1, 2 and 4 receiver processes sharing one PostgreSQL inbox. Prints
// acked req/s, CPU per request (and the PostgreSQL backends' CPU per ack), the ratios, ack latency and
// peak RSS. The load generator runs here, never in a server's process. `--only commit,sqlite,postgres`
// (or BENCH_ONLY) runs a part of it.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chooseLoader, type Loader } from './bench-load.js';
import { commitCosts } from './commit-cost.js';
import { idOrderCosts } from './id-order-cost.js';
import { stepCosts } from './step-cost.js';
import { otelCosts } from './otel-cost.js';
import {
  BENCH_IDS,
  BODY_BYTES,
  CONNECTIONS,
  DURATION_SECONDS,
  HANDLERS_IN_ALL,
  PG_PROCESS_COUNTS,
  ROUNDS,
  SQLITE_THREAD,
  SERVER_KINDS,
  WARMUP_SECONDS,
  selectedParts,
  type BenchStore,
  type ServerKind,
} from './bench-config.js';
import { benchSchema, dropSchemas, postgresUnavailable, shownPgUrl } from './bench-postgres.js';
import {
  isReceiver,
  label,
  measure,
  startTarget,
  stopTarget,
  warmUp,
  type Sample,
  type Target,
  type TargetSpec,
} from './bench-target.js';

interface Row {
  t: Target;
  rps: number;
  cpu: number;
  /** The load generator's CPU per request, on the same machine. */
  loaderCpu: number;
  /** The main threads' share of `cpu`. */
  loopCpu: number | undefined;
  dbCpu: number | undefined;
  p50: number;
  p99: number;
  failures: number;
  rss: number;
}

const dir = mkdtempSync(join(tmpdir(), 'convo-kit-bench-'));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

function sqliteSpec(kind: ServerKind, store: BenchStore): TargetSpec {
  const where = join(dir, `${kind.replace(/\W+/g, '-')}-${store.replace(' ', '-')}.db`);
  return { kind, store, processes: 1, where, concurrency: HANDLERS_IN_ALL };
}

/** What to run: the SQLite servers, and the PostgreSQL runs with the baselines they are compared with. */
async function plan(parts: Set<string>): Promise<TargetSpec[]> {
  const specs: TargetSpec[] = [];
  const add = (spec: TargetSpec) => {
    if (!specs.some((s) => label(s) === label(spec))) specs.push(spec);
  };
  if (parts.has('sqlite')) {
    for (const kind of SERVER_KINDS) add(sqliteSpec(kind, 'sqlite full'));
    for (const kind of SERVER_KINDS.filter((k) => k.includes('receiver'))) add(sqliteSpec(kind, 'sqlite normal'));
  }
  if (parts.has('postgres')) {
    const unavailable = await postgresUnavailable();
    if (unavailable) {
      console.log(
        `PostgreSQL rows skipped: no server at ${shownPgUrl()} (${unavailable}). Start one, or set ` +
          'CONVO_KIT_PG_URL=postgres://user@host:5432/database, to include them.\n',
      );
    } else {
      add(sqliteSpec('bare express', 'sqlite full'));
      add(sqliteSpec('express + receiver', 'sqlite full'));
      for (const processes of PG_PROCESS_COUNTS)
        add({
          kind: 'express + receiver',
          store: 'postgres',
          processes,
          where: benchSchema(processes),
          concurrency: Math.ceil(HANDLERS_IN_ALL / processes),
        });
    }
  }
  return specs;
}

function summarize(t: Target, s: Sample[]): Row {
  const pick = (f: (x: Sample) => number) => median(s.map(f));
  return {
    t,
    rps: pick((x) => x.rps),
    cpu: pick((x) => x.cpuMicrosPerRequest),
    loaderCpu: pick((x) => x.loaderCpuMicrosPerRequest),
    loopCpu: s.every((x) => x.loopCpuMicrosPerRequest !== undefined)
      ? pick((x) => x.loopCpuMicrosPerRequest!)
      : undefined,
    dbCpu: s.every((x) => x.dbCpuMicrosPerRequest !== undefined) ? pick((x) => x.dbCpuMicrosPerRequest!) : undefined,
    p50: pick((x) => x.p50),
    p99: pick((x) => x.p99),
    failures: s.reduce((n, x) => n + x.failures, 0),
    rss: Math.max(...s.map((x) => x.maxRssMiB)),
  };
}

function reportSqlite(row: (kind: ServerKind, store: BenchStore) => Row | undefined, summary: Row[]): void {
  for (const store of ['sqlite full', 'sqlite normal'] as const) {
    for (const [receiver, bare, target] of [
      ['express + receiver', 'bare express', 'target >= 0.95'],
      // No lower than before the hardening, which BENCH_DIST measures in the same harness (README "Durability").
      ['node:http + receiver', 'bare node:http', 'target: no lower than the pre-hardening build (BENCH_DIST)'],
    ] as const) {
      const r = row(receiver, store);
      const b = row(bare, 'sqlite full');
      if (!r || !b) continue;
      console.log(
        `${store.padEnd(13)} ${receiver.padEnd(20)} / ${bare.padEnd(14)}: req/s ratio ${(r.rps / b.rps).toFixed(2)}, ` +
          `CPU-per-request ratio ${(b.cpu / r.cpu).toFixed(2)} (${target})`,
      );
    }
  }
  const express = row('express + receiver', 'sqlite full');
  const bareExpress = row('bare express', 'sqlite full');
  if (express && bareExpress)
    console.log(
      `CPU per ack, receiver in Express (sqlite full): ${(express.cpu / bareExpress.cpu).toFixed(2)} x bare Express's (target <= 1.15)`,
    );
  const p99s = summary.filter((r) => isReceiver(r.t) && r.t.store === 'sqlite full').map((r) => r.p99);
  if (p99s.length > 0)
    console.log(`receiver p99 ack latency, default durability (full): ${Math.max(...p99s)} ms (target < 50 ms)`);
}

function reportPostgres(summary: Row[], bare: Row | undefined): void {
  const shared = summary.filter((r) => r.t.kind === 'express + receiver' && r.t.store !== 'sqlite normal');
  if (!bare || !shared.some((r) => r.t.store === 'postgres')) return;
  console.log('\nOne inbox in PostgreSQL vs SQLite, receivers in Express, the same load:');
  console.table(
    shared.map((r) => ({
      store: r.t.store === 'postgres' ? 'PostgreSQL' : 'SQLite (full)',
      processes: r.t.processes,
      'acked/s': Math.round(r.rps),
      'p99 ack ms': r.p99,
      'CPU µs/ack (all processes)': Math.round(r.cpu),
      // PostgreSQL's own backends, on this machine (a blank cell: SQLite, or a server elsewhere).
      ...(r.dbCpu === undefined ? {} : { 'PostgreSQL CPU µs/ack': Math.round(r.dbCpu) }),
      'x bare Express': Number((r.rps / bare.rps).toFixed(2)),
    })),
  );
  const one = shared.find((r) => r.t.store === 'postgres' && r.t.processes === 1)!;
  console.log(
    `1 PostgreSQL receiver in Express / bare Express (${Math.round(bare.rps)} req/s): ${(one.rps / bare.rps).toFixed(2)} (target >= 0.7)`,
  );
}

function loaderNote(loader: Loader): string {
  if (loader === 'wrk') return 'wrk';
  if (process.env.BENCH_LOADER === 'autocannon') return 'autocannon in this process (BENCH_LOADER=autocannon)';
  return 'autocannon in this process: wrk is not installed (apt-get install -y wrk; it takes less of the CPU the servers share)';
}

async function main(): Promise<void> {
  const parts = selectedParts();
  const loader = await chooseLoader();
  console.log(
    `convo-kit receiver benchmark (${[...parts].join(', ')}): ${CONNECTIONS} connections, ${BODY_BYTES} B signed unique deliveries ` +
      `with ${BENCH_IDS === 'random' ? "random ids, as the service's (BENCH_IDS=sequential for a counter)" : 'sequential ids (BENCH_IDS=sequential)'}, ` +
      `handlers sleep 50 ms, ${HANDLERS_IN_ALL} at once per run; the SQLite store ${SQLITE_THREAD ? 'on its own thread (BENCH_SQLITE_THREAD=true)' : 'on the event loop'}; ${ROUNDS} rounds of ${DURATION_SECONDS} s per server, medians shown` +
      (process.env.BENCH_DIST ? `; the receivers of ${process.env.BENCH_DIST} (BENCH_DIST)` : '') +
      `; load from ${loaderNote(loader)}` +
      '\n',
  );
  if (parts.has('commit')) {
    await commitCosts();
    await idOrderCosts();
  }
  if (parts.has('steps')) await stepCosts();
  if (parts.has('otel')) await otelCosts();
  const specs = await plan(parts);
  if (specs.length === 0) return;
  let targets: Target[] = [];
  try {
    // Started together; should one fail, the others end with this process (bench-server.ts exits on disconnect).
    targets = await Promise.all(specs.map(startTarget));
    for (const t of targets) await warmUp(t, WARMUP_SECONDS, loader);
    const samples = new Map<Target, Sample[]>(targets.map((t) => [t, []]));
    // Each round starts one target later: none is always measured right after the same neighbour
    // (after the PostgreSQL runs, the server is still writing back what they stored).
    for (let round = 0; round < ROUNDS; round++)
      for (let i = 0; i < targets.length; i++) {
        const t = targets[(round + i) % targets.length]!;
        samples.get(t)!.push(await measure(t, DURATION_SECONDS, loader));
      }
    const summary = targets.map((t) => summarize(t, samples.get(t)!));
    console.table(
      summary.map((r) => ({
        server: label(r.t),
        'acked req/s': Math.round(r.rps),
        'CPU µs/req': Math.round(r.cpu),
        ...(r.loopCpu === undefined ? {} : { 'event loop CPU µs/req': Math.round(r.loopCpu) }),
        'load generator CPU µs/req': Math.round(r.loaderCpu),
        'p50 ms': r.p50,
        'p99 ms': r.p99,
        'non-2xx+errors': r.failures,
        'peak RSS MiB': Math.round(r.rss),
      })),
    );
    const row = (kind: ServerKind, store: BenchStore) =>
      summary.find((r) => r.t.kind === kind && r.t.store === store && r.t.processes === 1);
    reportSqlite(row, summary);
    reportPostgres(summary, row('bare express', 'sqlite full'));
    console.log(
      `machine load average during the run: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} on ${availableParallelism()} cores`,
    );
  } finally {
    targets.forEach(stopTarget);
    await dropSchemas(specs.filter((s) => s.store === 'postgres').map((s) => s.where));
  }
}

try {
  await main();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
