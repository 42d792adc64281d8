// The load from wrk (Debian's package `wrk`), a separate process written in C: less CPU per request
// than autocannon, which on two cores took a share the servers needed (README "Durability").
// The signed requests are prepared before the run, and sent in order, each once.
import { execFile } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CONNECTIONS } from './bench-config.js';
import type { LoadResult, PreparedLoad } from './bench-load.js';
import { nextDelivery, rawRequest } from './signed-deliveries.js';
import { statFields, TICK_MICROS, waitedChildrenTicks } from '../test/support/process-tree.js';

const run = promisify(execFile);
const SCRIPT = fileURLToPath(new URL('./wrk-deliveries.lua', import.meta.url));
/** Requests prepared per second of a run, for each run that must see every delivery once (a receiver's). */
const UNIQUE_PER_SECOND = Number(process.env.BENCH_UNIQUE_PER_SECOND ?? 25_000);
/** For a bare server, which reads and drops the body, repeats cost the same: a smaller set, sent round. */
const REPEATED_SET = 20_000;

/** Whether wrk can be run here. */
export async function wrkAvailable(): Promise<boolean> {
  try {
    await run('wrk', ['--version']);
    return true;
  } catch (error) {
    // wrk --version prints its banner and exits 1.
    return (error as { code?: unknown }).code === 1;
  }
}

const dir = mkdtempSync(join(tmpdir(), 'convo-kit-wrk-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** A file of `count` raw requests made by `make` (the n-th request), NUL-separated, for `wrk`. */
export function writeRequests(count: number, make: (n: number) => string = () => rawRequest(nextDelivery())): string {
  const file = join(dir, `requests-${++files}`);
  const fd = openSync(file, 'w');
  try {
    for (let written = 0; written < count; ) {
      const batch = Math.min(5000, count - written);
      let chunk = '';
      for (let i = 0; i < batch; i++) chunk += `${make(written + i)}\0`;
      writeSync(fd, chunk);
      written += batch;
    }
  } finally {
    closeSync(fd);
  }
  return file;
}

interface WrkResult {
  requests: number;
  duration_us: number;
  status_errors: number;
  socket_errors: number;
  p50_us: number;
  p99_us: number;
  /** Times the prepared requests ran out and started again. */
  wrapped: number;
}

/**
 * One wrk process on one port, sending the raw requests of `file` (NUL-separated, in order, round); a shell
 * around it reports wrk's CPU time once it has ended.
 */
export async function wrk(port: number, connections: number, seconds: number, file: string) {
  const { stdout } = await run(
    'sh',
    [
      '-c',
      'wrk "$@" || exit $?; cat /proc/$$/stat',
      'sh',
      '-t1',
      `-c${connections}`,
      `-d${seconds}s`,
      '--timeout',
      '10s',
      '-s',
      SCRIPT,
      `http://127.0.0.1:${port}/webhooks`,
      '--',
      file,
    ],
    { maxBuffer: 1 << 20 },
  );
  const line = stdout.split('\n').find((l) => l.startsWith('WRK_RESULT '));
  if (!line) throw new Error(`wrk printed no result:\n${stdout}`);
  const result = JSON.parse(line.slice('WRK_RESULT '.length)) as WrkResult;
  // The shell's stat, whose waited-for child is wrk.
  const stat = stdout.trimEnd().split('\n').at(-1)!;
  return { result, cpuMicros: waitedChildrenTicks(statFields(stat)) * TICK_MICROS };
}

/**
 * Prepares the requests (outside the measured time), then runs one wrk per port, the connections dealt
 * out over the ports as a load balancer would. With several ports, p50 is the requests-weighted mean of
 * theirs and p99 the highest.
 */
export function prepareWrkLoad(ports: readonly number[], seconds: number, unique: boolean): PreparedLoad {
  const shares = ports.map((_, i) => Math.floor(CONNECTIONS / ports.length) + (i < CONNECTIONS % ports.length ? 1 : 0));
  const paths = shares.map((share) =>
    writeRequests(unique ? Math.ceil((UNIQUE_PER_SECOND * seconds * share) / CONNECTIONS) : REPEATED_SET),
  );
  return async () => {
    try {
      const runs = await Promise.all(ports.map((port, i) => wrk(port, shares[i]!, seconds, paths[i]!)));
      const sum = (f: (r: WrkResult) => number) => runs.reduce((n, r) => n + f(r.result), 0);
      const sent = sum((r) => r.requests);
      if (unique && runs.some((r) => r.result.wrapped > 0))
        throw new Error(
          `wrk sent more requests than were prepared (${sent} sent): some deliveries went twice. ` +
            `Raise BENCH_UNIQUE_PER_SECOND (now ${UNIQUE_PER_SECOND}).`,
        );
      return {
        ok: sent - sum((r) => r.status_errors),
        seconds: Math.max(...runs.map((r) => r.result.duration_us)) / 1e6,
        failures: sum((r) => r.status_errors + r.socket_errors),
        p50: Math.round(sum((r) => r.p50_us * r.requests) / Math.max(1, sent)) / 1000,
        p99: Math.max(...runs.map((r) => r.result.p99_us)) / 1000,
        sent,
        loaderCpuMicros: runs.reduce((n, r) => n + r.cpuMicros, 0),
      } satisfies LoadResult;
    } finally {
      for (const path of paths) rmSync(path, { force: true });
    }
  };
}
