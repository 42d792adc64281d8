// The load: signed unique 1 KiB deliveries from CONNECTIONS keep-alive connections. Given several ports
// (receiver processes sharing one inbox), autocannon deals the connections out round-robin, as a load
// balancer would, and keeps one latency histogram for all of them.
import autocannon, { type Result } from 'autocannon';
import { sampleEvent } from '../src/events/index.js';
import { signedHeaders } from '../src/signature/index.js';
import { BENCH_SECRET, BODY_BYTES, CONNECTIONS } from './bench-config.js';

/** A 1 KiB envelope with a placeholder event id, replaced per request so every body is unique. */
const PLACEHOLDER = 'evt_000000000000000000000000';
const template = (() => {
  const base = JSON.stringify(sampleEvent('message.received', { id: PLACEHOLDER, data: { content: '' } }));
  return base.replace('"content":""', `"content":"${'x'.repeat(BODY_BYTES - base.length)}"`);
})();

/** Unique across every run and process of the benchmark, so no delivery is ever a duplicate. */
let counter = 0;
function setupRequest(request: { method?: string; path?: string; headers?: Record<string, string> }) {
  const n = String(++counter).padStart(24, '0');
  const body = template.replace(PLACEHOLDER, `evt_${n}`);
  return {
    ...request,
    method: 'POST',
    path: '/webhooks',
    body,
    // The event is given, so the 1 KiB body is not parsed per request to find it.
    headers: signedHeaders({ secret: BENCH_SECRET, body, deliveryId: `dlv_${n}`, event: 'message.received' }),
  };
}

export const load = (ports: readonly number[], duration: number): Promise<Result> =>
  autocannon({
    url: ports.map((port) => `http://127.0.0.1:${port}`),
    connections: CONNECTIONS,
    duration,
    requests: [{ setupRequest }],
  });
