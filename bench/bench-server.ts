// One server of the benchmark, in its own process so the load generator never shares its event loop.
// argv: <kind> <store> <where> (a SQLite file, or a PostgreSQL schema) <handler concurrency>; tells the
// parent its port over IPC, and its CPU time per request and peak RSS when asked.
import express from 'express';
import { createServer, type IncomingMessage, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as ReceiverEntry from '../src/receiver/index.js';
import type { Receiver } from '../src/receiver/index.js';
import type * as StoreEntry from '../src/store/index.js';
import type { DeliveryStore } from '../src/store/index.js';
import type * as PostgresEntry from '../src/store/postgres/index.js';
import {
  BENCH_SECRET,
  HANDLER_SLEEP_MS,
  SQLITE_THREAD,
  type BenchStore,
  type ServerKind,
  type ServerStats,
} from './bench-config.js';
import { runPgUrl } from './bench-postgres.js';
import { ownTicks, statFileFields, TICK_MICROS } from '../test/support/process-tree.js';

const [kind, storeKind, where, concurrency] = process.argv.slice(2) as [ServerKind, BenchStore, string, string];

/**
 * The receivers run the package as published (dist/, which `npm run bench` builds first), as users run
 * it: tsx's transform of src/ names every function it creates (`__name`), a cost per request that the
 * bare servers, plain JavaScript from node_modules, never pay.
 */
async function published<T>(entry: string): Promise<T> {
  const file = new URL(`${entry}/index.js`, distDirectory());
  if (!existsSync(file)) throw new Error(`${file.pathname} is missing: run \`npm run build\` (npm run bench does)`);
  return (await import(file.href)) as T;
}
/**
 * `BENCH_DIST=<dir>` runs the receivers of another build (an earlier commit's `dist/`, say) against this
 * run's bare servers: a before-and-after comparison in one harness.
 */
function distDirectory(): URL {
  const dir = process.env.BENCH_DIST;
  if (dir === undefined || dir === '') return new URL('../dist/', import.meta.url);
  return pathToFileURL(`${resolve(dir)}/`);
}
const { createReceiver } = await published<typeof ReceiverEntry>('receiver');
const { createSqliteStore } = await published<typeof StoreEntry>('store');
const { createPostgresStore } = await published<typeof PostgresEntry>('store/postgres');

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req
      .on('data', (c: Buffer) => chunks.push(c))
      .on('end', () => resolve(Buffer.concat(chunks)))
      .on('error', reject);
  });
}

function openStore(): DeliveryStore {
  if (storeKind === 'postgres') return createPostgresStore({ connectionString: runPgUrl(where), schema: where });
  return createSqliteStore({
    path: where,
    durability: storeKind === 'sqlite full' ? 'full' : 'normal',
    thread: SQLITE_THREAD,
  });
}

/**
 * A receiver runs only while this server is measured (or warmed up): its worker drains a backlog at
 * 10 handlers x 50 ms = 200 deliveries/s (in all the processes of a run), far below the ack rate, and a receiver left running would go on
 * draining (claims, completions, PostgreSQL commits) while the next server is measured.
 */
let store: DeliveryStore | undefined;
let receiver: Receiver | undefined;
let receiverListener: RequestListener | undefined;

async function resume(): Promise<void> {
  if (receiver) return;
  store ??= openStore();
  const r = createReceiver({
    secret: BENCH_SECRET,
    store,
    concurrency: Number(concurrency),
    logger: pino({ level: 'warn' }),
  });
  r.on('*', () => new Promise((resolve) => setTimeout(resolve, HANDLER_SLEEP_MS)));
  await r.start();
  receiverListener = kind === 'express + receiver' ? express().post('/webhooks', r.middleware()) : r.listener;
  receiver = r;
}

async function pause(): Promise<void> {
  const r = receiver;
  receiver = undefined;
  receiverListener = undefined;
  await r?.close();
}

const paused: RequestListener = (_req, res) => {
  res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"paused"}');
};

const listeners: Record<ServerKind, RequestListener> = {
  'express + receiver': (req, res) => (receiverListener ?? paused)(req, res),
  // As an Express app that verifies deliveries by hand takes the bytes (the issue 23 harness's baseline):
  // express.raw() reads the body into a Buffer; nothing is checked or stored.
  'bare express': express().post('/webhooks', express.raw({ type: 'application/json', limit: '1mb' }), (_req, res) => {
    res.status(200).json({ received: true });
  }),
  'node:http + receiver': (req, res) => (receiverListener ?? paused)(req, res),
  'bare node:http': async (req, res) => {
    await readBody(req);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
  },
};

// A PostgreSQL store connects and migrates before the port is announced, so no run times a migration.
if (storeKind === 'postgres' && kind.includes('receiver')) {
  store = openStore();
  await store.list({ limit: 1 });
}

const server = createServer(listeners[kind]);
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));

// CPU time per answered request does not depend on what else the machine runs, unlike req/s; the
// parent sums it over the processes of a run.
let requests = 0;
let cpuStart = process.cpuUsage();
let loopCpuStart = eventLoopCpuMicros();

/**
 * CPU time of this process's main thread alone, the one that runs the event loop: the resource a server
 * runs out of first, whatever its other threads (the thread pool's fsyncs, the SQLite store's thread) use.
 * Linux only (its per-thread stat, in clock ticks of 10 ms); undefined elsewhere.
 */
function eventLoopCpuMicros(): number | undefined {
  const fields = statFileFields(`/proc/self/task/${process.pid}/stat`);
  return fields === undefined ? undefined : ownTicks(fields) * TICK_MICROS;
}
server.on('request', () => requests++);
// The benchmark ended (or was interrupted): nothing else would end this process.
process.on('disconnect', () => process.exit(0));
process.on('message', (message) => {
  void answer(message).then((reply) => process.send!(reply));
});

async function answer(message: unknown): Promise<unknown> {
  switch (message) {
    case 'resume':
      if (kind.includes('receiver')) await resume();
      return 'ok';
    case 'pause':
      await pause();
      return 'ok';
    case 'reset':
      requests = 0;
      cpuStart = process.cpuUsage();
      loopCpuStart = eventLoopCpuMicros();
      return 'ok';
    case 'stats': {
      const cpu = process.cpuUsage(cpuStart);
      const loopCpu = eventLoopCpuMicros();
      return {
        cpuMicros: cpu.user + cpu.system,
        loopCpuMicros: loopCpu === undefined || loopCpuStart === undefined ? undefined : loopCpu - loopCpuStart,
        requests,
        maxRssMiB: process.resourceUsage().maxRSS / 1024,
      } satisfies ServerStats;
    }
    default:
      throw new Error(`Unknown message ${String(message)}`);
  }
}
