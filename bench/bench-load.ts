// The load: signed unique 1 KiB deliveries (signed-deliveries.ts) from CONNECTIONS keep-alive
// connections, from wrk where it is installed, else from autocannon in this process.
import { autocannonLoad } from './load-autocannon.js';
import { prepareWrkLoad, wrkAvailable } from './load-wrk.js';

/** One measured run, whichever generator sent it. */
export interface LoadResult {
  /** 2xx answers: acked deliveries, for a receiver. */
  ok: number;
  seconds: number;
  /** Non-2xx answers, socket errors and timeouts. */
  failures: number;
  /** Latency in ms. */
  p50: number;
  p99: number;
  /** Requests answered in all. */
  sent: number;
  /** The load generator's CPU time for the run. */
  loaderCpuMicros: number;
}

/** A load ready to send: what it sends is prepared beforehand, outside the measured time. */
export type PreparedLoad = () => Promise<LoadResult>;

export type Loader = 'wrk' | 'autocannon';

/** `BENCH_LOADER=wrk|autocannon` chooses; by default wrk when it is installed. */
export async function chooseLoader(): Promise<Loader> {
  const asked = process.env.BENCH_LOADER;
  if (asked !== undefined && asked !== '' && asked !== 'wrk' && asked !== 'autocannon')
    throw new TypeError(`Expected BENCH_LOADER to be wrk or autocannon, got \`${asked}\``);
  if (asked === 'autocannon') return 'autocannon';
  if (await wrkAvailable()) return 'wrk';
  if (asked === 'wrk') throw new Error('BENCH_LOADER=wrk, but wrk is not installed (apt-get install -y wrk)');
  return 'autocannon';
}

/**
 * @param unique every request must be a new delivery (a receiver's run); a bare server, which only reads
 *   the body, may be sent repeats.
 */
export function prepareLoad(loader: Loader, ports: readonly number[], seconds: number, unique: boolean): PreparedLoad {
  if (loader === 'wrk') return prepareWrkLoad(ports, seconds, unique);
  return () => autocannonLoad(ports, seconds);
}
