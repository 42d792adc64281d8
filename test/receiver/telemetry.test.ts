import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Receiver } from '../../src/receiver/index.js';
import { createSqliteStore } from '../../src/store/index.js';
import { signedDelivery, type SignedDelivery } from '../../src/testing/index.js';
import { tempDir } from '../store/temp-dir.js';
import { metricValue, registerOtelSdk, spansNamed } from '../support/otel-sdk.js';
import { parsePrometheusText } from '../support/prometheus-text.js';
import { SECRET, testReceiver } from './harness.js';

// Before any receiver: the receiver takes its meter when it is created.
const sdk = registerOtelSdk();

let dir: ReturnType<typeof tempDir>;
const open: Receiver[] = [];
const servers: Server[] = [];
beforeEach(() => {
  dir = tempDir();
  sdk.spans.reset();
});
afterEach(async () => {
  for (const server of servers.splice(0)) server.close();
  await Promise.all(open.splice(0).map((r) => r.close()));
  dir.remove();
});

function make(options: Parameters<typeof testReceiver>[1] = {}): Receiver {
  const receiver = testReceiver(dir.path(`r${open.length}.db`), options);
  open.push(receiver);
  return receiver;
}

async function listen(listener: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const send = (url: string, d: Pick<SignedDelivery, 'headers' | 'body'>, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { ...d.headers, ...headers }, body: d.body });

async function readRow(path: string, id: string) {
  const store = createSqliteStore({ path });
  try {
    return await store.get(id);
  } finally {
    await store.close();
  }
}

/** Bounded polling for an outcome the worker reaches on its own time. */
async function until(what: string, check: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A counter's increase across `run`: metrics are cumulative for the whole file. */
async function increases(run: () => Promise<void>, reads: Record<string, [string, Record<string, string>?]>) {
  const before = await sdk.collect();
  await run();
  const after = await sdk.collect();
  return Object.fromEntries(
    Object.entries(reads).map(([key, [name, where]]) => [
      key,
      metricValue(after, name, where) - metricValue(before, name, where),
    ]),
  );
}

describe('receiver metrics', () => {
  it('add up after duplicates, a refusal, a failure, a retry and a dead letter', async () => {
    const receiver = make({ maxAttempts: 2 });
    let flaky = 0;
    receiver.on('message.received', () => undefined);
    receiver.on('ticket.created', () => {
      if (flaky++ === 0) throw new Error('first attempt fails');
    });
    receiver.on('ticket.closed', () => {
      throw new Error('always fails');
    });
    await receiver.start();
    const url = await listen(receiver.listener);
    const ok = signedDelivery({ secret: SECRET, event: 'message.received' });
    const retried = signedDelivery({ secret: SECRET, event: 'ticket.created' });
    const dead = signedDelivery({ secret: SECRET, event: 'ticket.closed' });
    const forged = signedDelivery({ secret: 'whsec_not-the-secret-at-all-000000', event: 'ticket.created' });

    const seen = await increases(
      async () => {
        for (const d of [ok, ok, ok, retried, dead]) expect((await send(url, d)).status).toBe(200);
        expect((await send(url, forged)).status).toBe(401);
        await until('the retry to succeed and the dead letter to die', async () => {
          const [r, d] = await Promise.all([
            receiver.store.get(retried.deliveryId),
            receiver.store.get(dead.deliveryId),
          ]);
          return r?.status === 'done' && d?.status === 'dead';
        });
      },
      {
        acked: ['convo_kit.receiver.deliveries', { outcome: 'acked' }],
        duplicate: ['convo_kit.receiver.deliveries', { outcome: 'duplicate' }],
        forged: ['convo_kit.receiver.deliveries', { outcome: 'refused', reason: 'SIGNATURE_MISMATCH' }],
        done: ['convo_kit.receiver.handler.runs', { outcome: 'done' }],
        failed: ['convo_kit.receiver.handler.runs', { outcome: 'failed' }],
        deadRuns: ['convo_kit.receiver.handler.runs', { outcome: 'dead', event: 'ticket.closed' }],
        timed: ['convo_kit.receiver.handler.duration'],
      },
    );
    expect(seen).toEqual({ acked: 3, duplicate: 2, forged: 1, done: 2, failed: 2, deadRuns: 1, timed: 5 });

    // The backlog gauges read the store at most once a second (BACKLOG_CACHE_MS): an earlier collection's
    // answer may still stand, so wait for the read that sees the dead letter.
    await expect
      .poll(async () => metricValue(await sdk.collect(), 'convo_kit.receiver.dead'), { timeout: 10_000 })
      .toBe(1);
    const now = await sdk.collect();
    expect(metricValue(now, 'convo_kit.receiver.backlog', { status: 'pending' })).toBe(0);
    expect(metricValue(now, 'convo_kit.receiver.oldest_pending_age')).toBe(0);

    const health = await receiver.health();
    expect(health).toMatchObject({
      status: 'degraded',
      store: { ok: true },
      worker: { running: true, closing: false },
      backlog: { pending: 0, retrying: 0, processing: 0 },
      dead: 1,
      oldestPendingAgeSeconds: 0,
    });
    expect(health.reasons).toEqual(['the dead deliveries is 1 (degradedDead 0)']);
  });
});

describe('Prometheus', () => {
  it('/metrics scraped over HTTP parses as Prometheus text and carries the receiver’s numbers', async () => {
    const receiver = make();
    receiver.on('message.received', () => undefined);
    await receiver.start();
    const url = await listen(receiver.listener);
    expect((await send(url, signedDelivery({ secret: SECRET, event: 'message.received' }))).status).toBe(200);
    await receiver.idle();
    const metricsUrl = await listen((req, res) => sdk.prometheus.getMetricsRequestHandler(req, res));
    const res = await fetch(`${metricsUrl}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const samples = parsePrometheusText(await res.text());
    const value = (name: string, labels: Record<string, string> = {}) =>
      samples
        .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
        .reduce((sum, s) => sum + s.value, 0);
    expect(value('convo_kit_receiver_deliveries_total', { outcome: 'acked' })).toBeGreaterThanOrEqual(1);
    expect(
      value('convo_kit_receiver_handler_runs_total', { outcome: 'done', event: 'message.received' }),
    ).toBeGreaterThanOrEqual(1);
    expect(value('convo_kit_receiver_handler_duration_count')).toBeGreaterThanOrEqual(1);
    expect(samples.some((s) => s.name === 'convo_kit_receiver_backlog' && s.labels.status === 'pending')).toBe(true);
    expect(samples.some((s) => s.name === 'convo_kit_receiver_oldest_pending_age')).toBe(true);
  });
});

describe('receiver spans', () => {
  it('a delivery is one trace: its receive span, and the process span of each attempt as its child', async () => {
    const receiver = make();
    let attempts = 0;
    receiver.on('ticket.created', () => {
      if (attempts++ === 0) throw new Error('once');
    });
    await receiver.start();
    const url = await listen(receiver.listener);
    const d = signedDelivery({ secret: SECRET, event: 'ticket.created' });
    await send(url, d);
    await send(url, d);
    await until('the retry', async () => (await receiver.store.get(d.deliveryId))?.status === 'done');

    const [first, duplicate] = spansNamed(sdk.spans, 'receive ticket.created');
    expect(first!.attributes).toMatchObject({
      'messaging.operation.type': 'receive',
      'messaging.message.id': d.deliveryId,
      'messaging.destination.name': 'ticket.created',
      'convo_kit.delivery.outcome': 'acked',
      'http.response.status_code': 200,
    });
    expect(duplicate!.attributes['convo_kit.delivery.outcome']).toBe('duplicate');
    const runs = spansNamed(sdk.spans, 'process ticket.created');
    expect(runs.map((s) => s.attributes['convo_kit.delivery.attempt'])).toEqual([1, 2]);
    expect(runs.map((s) => s.attributes['convo_kit.delivery.outcome'])).toEqual(['failed', 'done']);
    for (const run of runs) {
      expect(run.spanContext().traceId).toBe(first!.spanContext().traceId);
      expect(run.parentSpanContext?.spanId).toBe(first!.spanContext().spanId);
      expect(run.attributes['messaging.operation.type']).toBe('process');
    }
    expect(runs[0]!.attributes['error.type']).toBe('HANDLER_FAILED');
  });

  it('a refusal is a receive span with its reason code, from the headers half or the body half', async () => {
    const receiver = make();
    const url = await listen(receiver.listener);
    const d = signedDelivery({ secret: SECRET, event: 'ticket.created' });
    expect((await send(url, d, { 'x-service-delivery': '' })).status).toBe(400);
    expect((await send(url, d, { 'x-service-signature': `sha256=${'0'.repeat(64)}` })).status).toBe(401);
    const [headersHalf, bodyHalf] = spansNamed(sdk.spans, 'receive');
    expect(headersHalf!.attributes).toMatchObject({
      'convo_kit.delivery.outcome': 'refused',
      'error.type': 'DELIVERY_ID_MISSING',
      'http.response.status_code': 400,
    });
    expect(bodyHalf!.attributes).toMatchObject({
      'messaging.message.id': d.deliveryId,
      'convo_kit.delivery.outcome': 'refused',
      'error.type': 'SIGNATURE_MISMATCH',
      'http.response.status_code': 401,
    });
  });
});

describe('health routes', () => {
  it('/readyz is 503 until the worker runs and again once close() begins; /healthz answers throughout', async () => {
    const receiver = make();
    const url = await listen(receiver.healthRoutes());
    const get = async (path: string) => {
      const res = await fetch(url + path);
      return { status: res.status, body: (await res.json()) as { status: string; worker: { running: boolean } } };
    };
    expect((await get('/readyz')).status).toBe(503);
    expect(await get('/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
    await receiver.start();
    expect(await get('/readyz')).toMatchObject({ status: 200, body: { worker: { running: true } } });
    expect((await fetch(url + '/elsewhere')).status).toBe(404);
    const closed = receiver.close();
    expect((await get('/readyz')).status).toBe(503);
    await closed;
  });

  it('serve under Express beside the app’s own routes', async () => {
    const express = (await import('express')).default;
    const receiver = make();
    await receiver.start();
    const app = express();
    app.use(receiver.healthRoutes());
    app.get('/other', (_req, res) => void res.send('app'));
    const url = await listen(app);
    expect((await fetch(url + '/readyz')).status).toBe(200);
    expect(await (await fetch(url + '/other')).text()).toBe('app');
  });

  it('a thresholds option that is not a non-negative integer is refused naming it', () => {
    expect(() => make({ health: { degradedBacklog: -1 } })).toThrow(
      'Expected `health.degradedBacklog` to be an integer from 0 and up, got `-1`',
    );
  });

  it('says failing, and not ready, when the store does not answer', async () => {
    const receiver = make();
    await receiver.start();
    await receiver.store.close();
    const health = await receiver.health();
    expect(health).toMatchObject({ status: 'failing', store: { ok: false }, backlog: null });
    expect(health.reasons).toEqual(['the delivery store did not answer']);
  });
});

describe('close()', () => {
  it('refuses new deliveries with Retry-After, and releases a handler cut off at the deadline for the next receiver', async () => {
    const path = dir.path('shared.db');
    const first = testReceiver(path);
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    first.on('ticket.created', ({ signal }) => {
      started();
      // Runs until aborted, as a handler stuck on a slow call does.
      return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
    });
    await first.start();
    const url = await listen(first.listener);
    const d = signedDelivery({ secret: SECRET, event: 'ticket.created' });
    await send(url, d);
    await running;
    const closed = first.close({ deadlineMs: 200 });
    const refused = await send(url, signedDelivery({ secret: SECRET, event: 'ticket.created' }));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    await closed;
    const row = await readRow(path, d.deliveryId);
    // Released: no lease held, due now, so no receiver waits for a lease to expire.
    expect(row).toMatchObject({ status: 'failed', leaseOwner: null, leaseUntil: null });
    expect(row!.nextAttemptAt).toBeLessThanOrEqual(Date.now());

    const second = testReceiver(path);
    open.push(second);
    let ran = false;
    second.on('ticket.created', () => void (ran = true));
    await second.start();
    await until('the successor to run it', async () => (await second.store.get(d.deliveryId))?.status === 'done');
    expect(ran).toBe(true);
    const outcomes = spansNamed(sdk.spans, 'process ticket.created').map((s) => [
      s.attributes['convo_kit.delivery.outcome'],
      s.attributes['error.type'],
    ]);
    expect(outcomes).toEqual([
      ['released', 'RECEIVER_CLOSED'],
      ['done', undefined],
    ]);
  });

  it('lets a handler that finishes within the deadline complete its delivery', async () => {
    const path = dir.path('drain.db');
    const receiver = testReceiver(path);
    let finish!: () => void;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    receiver.on('ticket.created', () => {
      started();
      return new Promise<void>((resolve) => (finish = resolve));
    });
    await receiver.start();
    const url = await listen(receiver.listener);
    const d = signedDelivery({ secret: SECRET, event: 'ticket.created' });
    await send(url, d);
    await running;
    const closed = receiver.close({ deadlineMs: 60_000 });
    finish();
    await closed;
    expect((await readRow(path, d.deliveryId))?.status).toBe('done');
  });

  it('refuses a deadline that is not a non-negative integer, naming it', () => {
    const receiver = make();
    expect(() => receiver.close({ deadlineMs: -5 })).toThrow(
      'Expected `deadlineMs` to be an integer from 0 and up, got `-5`',
    );
  });
});
