// `npm run bench`: signed unique 1 KiB deliveries, 50 connections, against four servers in one run
// (receiver in Express, bare Express, receiver on node:http, bare node:http), each in its own process,
// plus the two receivers with the other durability. Prints req/s, CPU per request, the ratios, ack
// latency and peak RSS. The load generator runs here, never in a server's process.
import autocannon from 'autocannon';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sampleEvent } from '../src/events/index.js';
import { sign } from '../src/signature/index.js';
import type { Durability } from '../src/store/index.js';
import { commitCosts } from './commit-cost.js';
import {
  BENCH_SECRET,
  BODY_BYTES,
  CONNECTIONS,
  DURATION_SECONDS,
  ROUNDS,
  SERVER_KINDS,
  WARMUP_SECONDS,
  type ServerKind,
} from './bench-config.js';

interface Target {
  kind: ServerKind;
  durability: Durability;
  child: ChildProcess;
  port: number;
}

interface Sample {
  rps: number;
  p50: number;
  p99: number;
  failures: number;
  cpuMicrosPerRequest: number;
  maxRssMiB: number;
}

const SERVER = fileURLToPath(new URL('./bench-server.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'convo-kit-bench-'));

/** A 1 KiB envelope with a placeholder event id, replaced per request so every body is unique. */
const PLACEHOLDER = 'evt_000000000000000000000000';
const template = (() => {
  const base = JSON.stringify(sampleEvent('message.received', { id: PLACEHOLDER, data: { content: '' } }));
  return base.replace('"content":""', `"content":"${'x'.repeat(BODY_BYTES - base.length)}"`);
})();

let counter = 0;
function setupRequest(request: {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}) {
  const n = String(++counter).padStart(24, '0');
  const body = template.replace(PLACEHOLDER, `evt_${n}`);
  const timestamp = Math.floor(Date.now() / 1000);
  return {
    ...request,
    method: 'POST',
    path: '/webhooks',
    body,
    headers: {
      'content-type': 'application/json',
      'x-service-signature': sign({ secret: BENCH_SECRET, timestamp, body }),
      'x-service-timestamp': String(timestamp),
      'x-service-delivery': `dlv_${n}`,
      'x-service-event': 'message.received',
    },
  };
}

async function startServer(kind: ServerKind, durability: Durability): Promise<Target> {
  const dbPath = join(dir, `${kind.replace(/\W+/g, '-')}-${durability}.db`);
  const child = fork(SERVER, [kind, dbPath, durability], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
  child.removeAllListeners('exit');
  return { kind, durability, child, port };
}

function ask<T>(child: ChildProcess, message: string): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as T));
    child.send(message);
  });
}

const load = (port: number, duration: number) =>
  autocannon({ url: `http://127.0.0.1:${port}`, connections: CONNECTIONS, duration, requests: [{ setupRequest }] });

async function measure(target: Target): Promise<Sample> {
  await ask(target.child, 'reset');
  const result = await load(target.port, DURATION_SECONDS);
  const stats = await ask<{ cpuMicrosPerRequest: number; maxRssMiB: number }>(target.child, 'stats');
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    ...stats,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
const label = (t: Pick<Target, 'kind' | 'durability'>) =>
  t.kind.includes('receiver') ? `${t.kind} (${t.durability})` : t.kind;

async function main(): Promise<void> {
  console.log(
    `convo-kit receiver benchmark: ${CONNECTIONS} connections, ${BODY_BYTES} B signed unique deliveries, handlers sleep 50 ms; ` +
      `${ROUNDS} rounds of ${DURATION_SECONDS} s per server, medians shown\n`,
  );
  await commitCosts();
  const plan: [ServerKind, Durability][] = [
    ...SERVER_KINDS.map((kind) => [kind, 'full'] as [ServerKind, Durability]),
    ...SERVER_KINDS.filter((k) => k.includes('receiver')).map((kind) => [kind, 'normal'] as [ServerKind, Durability]),
  ];
  const targets = await Promise.all(plan.map(([kind, durability]) => startServer(kind, durability)));
  try {
    for (const t of targets) await load(t.port, WARMUP_SECONDS);
    const samples = new Map<Target, Sample[]>(targets.map((t) => [t, []]));
    for (let round = 0; round < ROUNDS; round++) for (const t of targets) samples.get(t)!.push(await measure(t));
    const summary = targets.map((t) => {
      const s = samples.get(t)!;
      const pick = (f: (x: Sample) => number) => median(s.map(f));
      return {
        t,
        rps: pick((x) => x.rps),
        cpu: pick((x) => x.cpuMicrosPerRequest),
        p50: pick((x) => x.p50),
        p99: pick((x) => x.p99),
        failures: s.reduce((n, x) => n + x.failures, 0),
        rss: Math.max(...s.map((x) => x.maxRssMiB)),
      };
    });
    console.table(
      summary.map((r) => ({
        server: label(r.t),
        'req/s': Math.round(r.rps),
        'CPU µs/req': Math.round(r.cpu),
        'p50 ms': r.p50,
        'p99 ms': r.p99,
        'non-2xx+errors': r.failures,
        'peak RSS MiB': Math.round(r.rss),
      })),
    );
    const row = (kind: ServerKind, durability: Durability) =>
      summary.find((r) => r.t.kind === kind && (r.t.durability === durability || !kind.includes('receiver')))!;
    for (const durability of ['full', 'normal'] as const) {
      for (const [receiver, bare, target] of [
        ['express + receiver', 'bare express', 0.8],
        ['node:http + receiver', 'bare node:http', 0.35],
      ] as const) {
        const r = row(receiver, durability);
        const b = row(bare, durability);
        console.log(
          `${durability.padEnd(6)} ${receiver.padEnd(20)} / ${bare.padEnd(14)}: req/s ratio ${(r.rps / b.rps).toFixed(2)}, ` +
            `CPU-per-request ratio ${(b.cpu / r.cpu).toFixed(2)} (target >= ${target})`,
        );
      }
    }
    const worstP99 = Math.max(
      ...summary.filter((r) => r.t.kind.includes('receiver') && r.t.durability === 'full').map((r) => r.p99),
    );
    console.log(`receiver p99 ack latency, default durability (full): ${worstP99} ms (target < 50 ms)`);
    console.log(
      `machine load average during the run: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} on ${availableParallelism()} cores`,
    );
  } finally {
    for (const t of targets) t.child.kill('SIGKILL');
  }
}

try {
  await main();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
