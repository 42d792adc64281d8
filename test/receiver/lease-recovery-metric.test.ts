import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Receiver } from '../../src/receiver/index.js';
import { METRICS } from '../../src/telemetry/metric-names.js';
import { signedDelivery } from '../../src/testing/index.js';
import { tempDir } from '../store/temp-dir.js';
import { metricValue, registerOtelSdk, spansNamed } from '../support/otel-sdk.js';
import { SECRET, testReceiver } from './harness.js';

// The real SDK, registered before any receiver (each takes its meter when it is created); its in-memory
// reader is read by the test.
const sdk = registerOtelSdk();

const LEASE_MS = 1000;
/**
 * The second receiver's clock runs this far ahead: to it the first one's lease (renewed to its own now plus
 * LEASE_MS) has lapsed, as it would have once the first process stopped renewing, with no test waiting
 * for a lease to run out.
 */
const AHEAD_MS = 3 * LEASE_MS;

let dir: ReturnType<typeof tempDir>;
const open: Receiver[] = [];
beforeEach(() => {
  dir = tempDir();
  sdk.spans.reset();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close({ deadlineMs: 0 })));
  dir.remove();
});

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const count = async (name: string, where: Record<string, string> = {}) => metricValue(await sdk.collect(), name, where);

describe('the lease_recoveries counter', () => {
  it('counts a delivery taken over from a worker whose lease lapsed once, through its failure and retry', async () => {
    const path = dir.path('inbox.db');
    // The first receiver takes the delivery and its handler never finishes: a process that hangs, or is gone.
    const first = testReceiver(path, { leaseMs: LEASE_MS });
    open.push(first);
    let firstRan = false;
    first.on('ticket.created', () => {
      firstRan = true;
      return new Promise<void>(() => undefined);
    });
    await first.start();
    const delivery = signedDelivery({ secret: SECRET, event: 'ticket.created' });
    const answer = await first.handle({ headers: delivery.headers, rawBody: delivery.body });
    expect(answer.status).toBe(200);
    await until('the first receiver to run the delivery', () => firstRan);
    // Its worker claims nothing more from now on (so the retry below is never its), while the hung attempt
    // goes on renewing its lease, as a process stuck in one handler would.
    const firstClosing = first.close({ deadlineMs: 30_000 });

    // The second, on the same SQLite file, finds the row processing under a lapsed lease and takes it over.
    // Its recovered attempt fails; the retry (its own claim, not a recovery) succeeds.
    const second = testReceiver(path, { leaseMs: LEASE_MS, now: () => Date.now() + AHEAD_MS });
    open.push(second);
    const attempts: number[] = [];
    second.on('ticket.created', ({ attempt }) => {
      attempts.push(attempt);
      if (attempts.length === 1) throw new Error('the recovered attempt fails once');
    });
    await second.start();
    await until(
      'the second receiver to finish it',
      async () => (await second.store.get(delivery.deliveryId))?.status === 'done',
    );
    // The first learns at its next renewal that the row is another's, and stops: a run lost, not recovered.
    await until(
      'the first receiver to give the row up',
      async () => (await count(METRICS.handlerRuns.name, { outcome: 'lost' })) === 1,
    );

    await firstClosing;
    expect(attempts).toHaveLength(2);
    expect(await count(METRICS.leaseRecoveries.name)).toBe(1);
    expect(await count(METRICS.leaseRecoveries.name, { event: 'ticket.created' })).toBe(1);
    expect(await count(METRICS.handlerRuns.name, { outcome: 'failed' })).toBe(1);
    expect(await count(METRICS.handlerRuns.name, { outcome: 'done' })).toBe(1);
    // Only the attempt that took the row over says so on its span.
    const processSpans = spansNamed(sdk.spans, 'process ticket.created');
    expect(processSpans.filter((s) => s.attributes['convo_kit.lease.recovered'] === true)).toHaveLength(1);
  });

  it('counts nothing when no lease lapsed: a second receiver leaves a live worker’s row alone', async () => {
    const before = await count(METRICS.leaseRecoveries.name);
    const path = dir.path('live.db');
    const first = testReceiver(path, { leaseMs: LEASE_MS });
    open.push(first);
    let release: () => void = () => undefined;
    let firstRan = false;
    first.on('ticket.created', () => {
      firstRan = true;
      return new Promise<void>((resolve) => (release = resolve));
    });
    await first.start();
    const delivery = signedDelivery({ secret: SECRET, event: 'ticket.created' });
    expect((await first.handle({ headers: delivery.headers, rawBody: delivery.body })).status).toBe(200);
    await until('the first receiver to run the delivery', () => firstRan);
    // Same clock: the lease is live, so the second's worker passes the row by.
    const second = testReceiver(path, { leaseMs: LEASE_MS });
    open.push(second);
    second.on('ticket.created', () => undefined);
    await second.start();
    // Idle with the row still processing: the second has looked and found nothing due.
    await second.idle();
    release();
    await until(
      'the first receiver to finish it',
      async () => (await first.store.get(delivery.deliveryId))?.status === 'done',
    );
    expect(await count(METRICS.leaseRecoveries.name)).toBe(before);
  });
});
