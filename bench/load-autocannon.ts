// The load from autocannon, in this process: the fallback where wrk is not installed. It spends
// 50-75 µs of CPU per request on the cores the servers share (README "Durability").
import autocannon from 'autocannon';
import { CONNECTIONS } from './bench-config.js';
import type { LoadResult } from './bench-load.js';
import { nextDelivery } from './signed-deliveries.js';

function setupRequest(request: { method?: string; path?: string; headers?: Record<string, string> }) {
  return { ...request, method: 'POST', path: '/webhooks', ...nextDelivery() };
}

/**
 * Given several ports (receiver processes sharing one inbox), autocannon deals the connections out
 * round-robin, as a load balancer would, and keeps one latency histogram for all of them.
 */
export async function autocannonLoad(ports: readonly number[], seconds: number): Promise<LoadResult> {
  const cpu = process.cpuUsage();
  const result = await autocannon({
    url: ports.map((port) => `http://127.0.0.1:${port}`),
    connections: CONNECTIONS,
    duration: seconds,
    requests: [{ setupRequest }],
  });
  const used = process.cpuUsage(cpu);
  return {
    ok: result['2xx'],
    seconds: result.duration,
    failures: result.non2xx + result.errors + result.timeouts,
    p50: result.latency.p50,
    p99: result.latency.p99,
    sent: result.requests.total,
    loaderCpuMicros: used.user + used.system,
  };
}
