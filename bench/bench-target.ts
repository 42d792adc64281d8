// A target of the benchmark: one server, or several receiver processes on one PostgreSQL inbox, each
// process forked from bench-server.ts. Measuring one resumes its receivers, loads it, pauses them.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BenchStore, ServerKind, ServerStats } from './bench-config.js';
import { prepareLoad, type Loader } from './bench-load.js';
import { backendCpuMicros } from './bench-postgres.js';

export interface TargetSpec {
  kind: ServerKind;
  store: BenchStore;
  processes: number;
  /** A SQLite file, or the PostgreSQL schema the processes share. */
  where: string;
  /** Handlers running at once in each process. */
  concurrency: number;
}

export interface Target extends TargetSpec {
  children: ChildProcess[];
  ports: number[];
}

export interface Sample {
  /** 2xx answers per second: acked deliveries, for a receiver. */
  rps: number;
  p50: number;
  p99: number;
  failures: number;
  cpuMicrosPerRequest: number;
  /** CPU of the load generator (this process) per request sent: what the servers share the machine with. */
  loaderCpuMicrosPerRequest: number;
  /** CPU of the servers' main threads (their event loops) per request; undefined off Linux. */
  loopCpuMicrosPerRequest: number | undefined;
  /** CPU of the PostgreSQL backends serving the run, per 2xx; undefined when not measurable. */
  dbCpuMicrosPerRequest: number | undefined;
  maxRssMiB: number;
}

const SERVER = fileURLToPath(new URL('./bench-server.ts', import.meta.url));

export const isReceiver = (t: Pick<TargetSpec, 'kind'>) => t.kind.includes('receiver');

export function label(t: Pick<TargetSpec, 'kind' | 'store' | 'processes'>): string {
  if (!isReceiver(t)) return t.kind;
  return t.store === 'postgres' ? `${t.kind} (postgres) x${t.processes}` : `${t.kind} (${t.store})`;
}

async function startProcess(spec: TargetSpec): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(SERVER, [spec.kind, spec.store, spec.where, String(spec.concurrency)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`${label(spec)} server exited with ${code}`)));
  });
  child.removeAllListeners('exit');
  return { child, port };
}

export async function startTarget(spec: TargetSpec): Promise<Target> {
  const started = await Promise.all(Array.from({ length: spec.processes }, () => startProcess(spec)));
  return { ...spec, children: started.map((s) => s.child), ports: started.map((s) => s.port) };
}

export function stopTarget(target: Target): void {
  for (const child of target.children) child.kill('SIGKILL');
}

function ask<T>(child: ChildProcess, message: string): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as T));
    child.send(message);
  });
}

const askAll = <T>(target: Target, message: string) => Promise.all(target.children.map((c) => ask<T>(c, message)));

export async function warmUp(target: Target, seconds: number, loader: Loader): Promise<void> {
  const load = prepareLoad(loader, target.ports, seconds, isReceiver(target));
  await askAll(target, 'resume');
  await load();
  await askAll(target, 'pause');
}

export async function measure(target: Target, seconds: number, loader: Loader): Promise<Sample> {
  // Prepared while the target is paused: the requests' signing is never part of a measurement.
  const load = prepareLoad(loader, target.ports, seconds, isReceiver(target));
  await askAll(target, 'resume');
  await askAll(target, 'reset');
  const dbCpu = () => (target.store === 'postgres' ? backendCpuMicros(target.where) : undefined);
  const dbBefore = await dbCpu();
  const result = await load();
  const dbAfter = await dbCpu();
  const stats = await askAll<ServerStats>(target, 'stats');
  await askAll(target, 'pause');
  const sum = (f: (s: (typeof stats)[number]) => number) => stats.reduce((n, s) => n + f(s), 0);
  const requests = Math.max(
    1,
    sum((s) => s.requests),
  );
  return {
    rps: result.ok / result.seconds,
    p50: result.p50,
    p99: result.p99,
    failures: result.failures,
    cpuMicrosPerRequest: sum((s) => s.cpuMicros) / requests,
    loaderCpuMicrosPerRequest: result.loaderCpuMicros / Math.max(1, result.sent),
    loopCpuMicrosPerRequest: stats.every((s) => s.loopCpuMicros !== undefined)
      ? sum((s) => s.loopCpuMicros!) / requests
      : undefined,
    dbCpuMicrosPerRequest:
      dbBefore === undefined || dbAfter === undefined ? undefined : (dbAfter - dbBefore) / Math.max(1, result.ok),
    maxRssMiB: Math.max(...stats.map((s) => s.maxRssMiB)),
  };
}
