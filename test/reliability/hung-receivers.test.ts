import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { DELIVERY_DEADLINE_MS } from '../../src/signature/index.js';
import { as, cleanup, emulator } from '../emulator/platform-harness.js';
import { hungReceiver } from '../support/hung-receiver.js';
import { printFigures } from './figures.js';

afterEach(cleanup);

const HUNG_ENDPOINTS = 10;
const MESSAGES = 40;
/** Between two customer messages: 40 of them span more than one hung attempt's 8 s deadline. */
const GAP_MS = 250;
/** What the second probe asked of a healthy endpoint beside 10 hung ones. */
const TARGET_MS = 2_000;

/** A receiver that answers 200 at once and notes when each probe message arrived. */
async function timedReceiver(arrived: Map<number, number>) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const probe = /probe (\d+)\b/.exec(Buffer.concat(chunks).toString('utf8'));
      if (probe) arrived.set(Number(probe[1]), performance.now());
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

it('10 hung receivers: a healthy endpoint gets each delivery while they hold their connections', async () => {
  // Retries 1 s and 2 s after a failure, so the hung endpoints come back for more while the probe runs.
  const e = await emulator({ retryDelaysSeconds: [1, 2] });
  const hung = await Promise.all(Array.from({ length: HUNG_ENDPOINTS }, () => hungReceiver()));
  afterEach(() => Promise.all(hung.map((h) => h.close())));
  const arrived = new Map<number, number>();
  for (const url of [...hung.map((h) => h.url), await timedReceiver(arrived)])
    expect(
      (
        await as(e)
          .post('/v1/webhooks')
          .send({ url, events: ['message.received'] })
      ).status,
    ).toBe(201);

  const sent = new Map<number, number>();
  for (let i = 0; i < MESSAGES; i++) {
    const res = await as(e)
      .post('/_emulator/inbound')
      .send({ channel: 'phone', from: { handle: `+1415555${String(6200 + i)}` }, content: `probe ${i}` });
    expect(res.status).toBe(201);
    sent.set(i, performance.now());
    await new Promise((resolve) => setTimeout(resolve, GAP_MS));
  }
  const deadline = Date.now() + 30_000;
  while (arrived.size < MESSAGES && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));

  const waits = [...sent].map(([i, at]) => (arrived.get(i) ?? Number.POSITIVE_INFINITY) - at).sort((a, b) => a - b);
  const accepted = hung.reduce((n, h) => n + h.accepted, 0);
  printFigures(`${HUNG_ENDPOINTS} hung receivers beside a healthy one`, {
    'healthy deliveries': `${arrived.size}/${MESSAGES}`,
    'wait p50 ms': percentile(waits, 0.5).toFixed(0),
    'wait p95 ms': percentile(waits, 0.95).toFixed(0),
    'wait max ms': waits.at(-1)!.toFixed(0),
    [`within ${TARGET_MS} ms`]: waits.filter((w) => w <= TARGET_MS).length,
    'connections to hung receivers': accepted,
    'still held at the end': accepted - hung.reduce((n, h) => n + h.closed, 0),
  });
  expect(arrived.size).toBe(MESSAGES);
  // No delivery waited for a hung attempt's deadline to free a slot (before: a median of 88 s at 4 hung).
  expect(waits.at(-1)!).toBeLessThan(DELIVERY_DEADLINE_MS);
});
