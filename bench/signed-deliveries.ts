// The deliveries of the load: signed 1 KiB envelopes, each with its own delivery and event id, so no
// request is ever a duplicate (a duplicate is answered without a write, which would flatter a receiver).
import { sampleEvent } from '../src/events/index.js';
import { prefixedId } from '../src/internal/prefixed-id.js';
import { signedHeaders } from '../src/signature/index.js';
import { BENCH_IDS, BENCH_SECRET, BODY_BYTES, type IdOrder } from './bench-config.js';

/** A 1 KiB envelope with a placeholder event id, replaced per request so every body is unique. */
const PLACEHOLDER = 'evt_000000000000000000000000';
const template = (() => {
  const base = JSON.stringify(sampleEvent('message.received', { id: PLACEHOLDER, data: { content: '' } }));
  return base.replace('"content":""', `"content":"${'x'.repeat(BODY_BYTES - base.length)}"`);
})();

/** Unique across every run and process of the benchmark. */
let counter = 0;

export interface SignedDelivery {
  body: string;
  headers: Record<string, string>;
}

/**
 * An id as the service makes them (`prefixedId`: the prefix, then 24 random characters) or, `sequential`, the
 * counter `n` in as many digits. Random keys land all over the store's two unique indexes, a page written per
 * row and index, where a counter's land on the last page (README "Durability").
 */
export function benchId(prefix: string, order: IdOrder, n: number): string {
  return order === 'random' ? prefixedId(prefix) : `${prefix}_${String(n).padStart(24, '0')}`;
}

export function nextDelivery(): SignedDelivery {
  const n = ++counter;
  const body = template.replace(PLACEHOLDER, benchId('evt', BENCH_IDS, n));
  // The event is given, so the 1 KiB body is not parsed per request to find it.
  return {
    body,
    headers: signedHeaders({
      secret: BENCH_SECRET,
      body,
      deliveryId: benchId('dlv', BENCH_IDS, n),
      event: 'message.received',
    }),
  };
}

/** The delivery as the bytes of one HTTP/1.1 request, for a load generator that sends raw requests. */
export function rawRequest({ body, headers }: SignedDelivery): string {
  let head = 'POST /webhooks HTTP/1.1\r\nHost: 127.0.0.1\r\n';
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
  return `${head}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}
