// `npm run bench`: signed unique 1 KiB deliveries, 50 connections, against four servers in one run
// (receiver in Express, bare Express, receiver on node:http, bare node:http), each in its own process;
// then the two receivers again with the other durability. Prints req/s, the ratios, ack latency, RSS.
import autocannon from 'autocannon';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sampleEvent } from '../src/events/index.js';
import { sign } from '../src/signature/index.js';
import type { Durability } from '../src/store/index.js';
import { BENCH_SECRET, BODY_BYTES, CONNECTIONS, DURATION_SECONDS, SERVER_KINDS, WARMUP_SECONDS, type ServerKind } from './bench-config.js';

interface Run {
  kind: ServerKind;
  durability: Durability;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
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
function setupRequest(request: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer }) {
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

async function startServer(kind: ServerKind, durability: Durability): Promise<{ child: ChildProcess; port: number }> {
  const dbPath = join(dir, `${kind.replace(/\W+/g, '-')}-${durability}.db`);
  const child = fork(SERVER, [kind, dbPath, durability], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
  return { child, port };
}

async function measure(kind: ServerKind, durability: Durability): Promise<Run> {
  const { child, port } = await startServer(kind, durability);
  const url = `http://127.0.0.1:${port}`;
  await autocannon({ url, connections: CONNECTIONS, duration: WARMUP_SECONDS, requests: [{ setupRequest }] });
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_SECONDS, requests: [{ setupRequest }] });
  const { maxRssMiB } = await new Promise<{ maxRssMiB: number }>((resolve) => {
    child.once('message', (m) => resolve(m as { maxRssMiB: number }));
    child.send('stats');
  });
  child.removeAllListeners('exit');
  child.kill('SIGKILL');
  return {
    kind,
    durability,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    maxRssMiB,
  };
}

function table(runs: Run[]): void {
  const rows = runs.map((r) => ({
    server: r.kind.includes('receiver') ? `${r.kind} (${r.durability})` : r.kind,
    'req/s': Math.round(r.rps),
    'p50 ms': r.p50,
    'p99 ms': r.p99,
    'non-2xx': r.non2xx,
    errors: r.errors,
    'peak RSS MiB': Math.round(r.maxRssMiB),
  }));
  console.table(rows);
}

async function main(): Promise<void> {
  console.log(`convo-kit receiver benchmark: ${CONNECTIONS} connections, ${BODY_BYTES} B signed unique deliveries, ${DURATION_SECONDS} s per server, handlers sleep 50 ms\n`);
  const runs: Run[] = [];
  for (const kind of SERVER_KINDS) runs.push(await measure(kind, 'full'));
  for (const kind of SERVER_KINDS.filter((k) => k.includes('receiver'))) runs.push(await measure(kind, 'normal'));
  table(runs);
  const rps = (kind: ServerKind, durability: Durability = 'full') => runs.find((r) => r.kind === kind && (r.durability === durability || !kind.includes('receiver')))!.rps;
  for (const durability of ['full', 'normal'] as const) {
    const express = rps('express + receiver', durability) / rps('bare express');
    const node = rps('node:http + receiver', durability) / rps('bare node:http');
    console.log(`durability ${durability}: receiver/bare in Express ${express.toFixed(2)} (target >= 0.80); on node:http ${node.toFixed(2)} (target >= 0.35)`);
  }
  const worstP99 = Math.max(...runs.filter((r) => r.kind.includes('receiver') && r.durability === 'full').map((r) => r.p99));
  console.log(`receiver p99 ack latency (default durability full): ${worstP99} ms (target < 50 ms)`);
}

try {
  await main();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
