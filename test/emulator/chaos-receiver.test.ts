import { afterEach, describe, expect, it } from 'vitest';
import { WebhookEndpointCreated } from '../../src/api/schemas/webhook-endpoint.js';
import type { ChaosRule, ChaosState } from '../../src/emulator/chaos/chaos-rule.js';
import type { Emulator } from '../../src/emulator/index.js';
import { as, cleanup, emulator } from './platform-harness.js';
import { receiverBehindPort } from './receiver-harness.js';

afterEach(cleanup);

// Each delivery hazard of /_emulator/chaos (docs/emulator.md, "Chaos") against the real receiver: a
// createReceiver on a SQLite file behind a real port. Whatever the hazard, every event is handled, and
// handled once. Each test prints its figures.
const EVENTS = 12;
/** Bounded waits: the machine may be loaded, so outcomes are polled, never slept on. */
const WAIT_MS = 30_000;

interface Arrival {
  deliveryId: string;
  eventId: string;
  /** The message the event is about: its place in `emitted` is the order the events happened. */
  messageId: string;
  signatures: number;
  status: number;
}

async function chaosBench(e: Emulator) {
  let secrets: string[] = [];
  const runs = new Map<string, number>();
  const arrivals: Arrival[] = [];
  const { receiver, url, close } = await receiverBehindPort({
    secrets: async () => secrets,
    handlers: (r) =>
      r.on('*', async ({ envelope }) => {
        runs.set(envelope.id!, (runs.get(envelope.id!) ?? 0) + 1);
      }),
    seen: ({ headers, rawBody, answer }) => {
      const envelope = JSON.parse(rawBody.toString('utf8')) as { id: string; data: { id: string } };
      arrivals.push({
        deliveryId: String(headers['x-service-delivery']),
        eventId: envelope.id,
        messageId: envelope.data.id,
        signatures: String(headers['x-service-signature']).split(',').length,
        status: answer.status,
      });
    },
  });
  const registered = await as(e)
    .post('/v1/webhooks')
    .send({ url, events: ['message.received'] })
    .expect(201);
  const endpoint = WebhookEndpointCreated.parse(registered.body);
  secrets = [endpoint.secret];
  let sent = 0;
  const emitted: string[] = [];
  return {
    endpoint,
    arrivals,
    emitted,
    runs,
    setSecrets: (next: string[]) => (secrets = next),
    chaos: async (rule: ChaosRule) => (await as(e).post('/_emulator/chaos').send(rule).expect(200)).body as ChaosState,
    /** `count` customer messages: `count` message.received events, in this order. */
    async emit(count: number) {
      for (let i = 0; i < count; i++) {
        const res = await as(e)
          .post('/_emulator/inbound')
          .send({ channel: 'phone', from: { handle: `+1415555${String(1000 + sent++)}` }, content: `order ${sent}` })
          .expect(201);
        emitted.push(res.body.message.id as string);
      }
    },
    /** Waits (moving the clock past retries and holds) until every emitted event was handled. */
    async settle() {
      const deadline = Date.now() + WAIT_MS;
      const unsettled = () => runs.size < emitted.length || e.dispatcher.deliveries.pendingCount() > 0;
      while (unsettled() && Date.now() < deadline) {
        await e.dispatcher.idle();
        await receiver.idle();
        if (unsettled()) e.clock.advance(5);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await e.dispatcher.idle();
      await receiver.idle();
    },
    /** The figures of a run, printed: posts, duplicates the receiver recognised, handler runs. */
    figures(hazard: string, stats: ChaosState['stats']) {
      const figures = {
        hazard,
        events: emitted.length,
        posts: arrivals.length,
        distinct_deliveries: new Set(arrivals.map((a) => a.deliveryId)).size,
        handled_events: runs.size,
        handler_runs: [...runs.values()].reduce((a, b) => a + b, 0),
        ...stats,
      };
      console.log(`chaos figures: ${JSON.stringify(figures)}`);
      return figures;
    },
    close,
  };
}

/** Nothing lost, nothing run twice: every emitted event's handler ran exactly once. */
function expectEachHandledOnce(bench: Awaited<ReturnType<typeof chaosBench>>) {
  expect(bench.runs.size).toBe(EVENTS);
  expect([...bench.runs.values()].every((n) => n === 1)).toBe(true);
}

const run = async (
  hazard: string,
  rule: ChaosRule,
  during?: (b: Awaited<ReturnType<typeof chaosBench>>) => Promise<void>,
) => {
  const e = await emulator({ retryDelaysSeconds: [1, 1, 1] });
  const bench = await chaosBench(e);
  try {
    await bench.chaos(rule);
    await bench.emit(EVENTS);
    await during?.(bench);
    await bench.settle();
    const stats = (await as(e).post('/_emulator/chaos/clear').expect(200)).body as ChaosState;
    return { bench, figures: bench.figures(hazard, stats.stats) };
  } finally {
    await bench.close();
  }
};

describe('chaos against the real receiver', () => {
  it('duplicates: every delivery sent twice, same id and bytes; each handler runs once', async () => {
    const { bench, figures } = await run('duplicates', { duplicate_rate: 1 });
    expectEachHandledOnce(bench);
    expect(figures.duplicates_sent).toBe(EVENTS);
    expect(figures.posts).toBe(2 * EVENTS);
    expect(figures.distinct_deliveries).toBe(EVENTS);
  });

  it('forced timeouts: the receiver gets each delivery, then its retry; each handler runs once', async () => {
    const { bench, figures } = await run('timeouts', { timeout_first_attempts: 2 });
    expectEachHandledOnce(bench);
    expect(figures.timeouts_forced).toBe(2 * EVENTS);
    expect(figures.posts).toBe(3 * EVENTS);
    expect(figures.distinct_deliveries).toBe(EVENTS);
  });

  it('out of order: deliveries arrive in another order than the events happened; each handled once', async () => {
    const { bench, figures } = await run('out-of-order', { reorder_window_ms: 4_000 });
    expectEachHandledOnce(bench);
    expect(figures.deliveries_put_off).toBe(EVENTS);
    const arrived = bench.arrivals.map((a) => a.messageId);
    expect(new Set(arrived)).toEqual(new Set(bench.emitted));
    expect(arrived).not.toEqual(bench.emitted);
  });

  it('a delay: nothing arrives before it has passed, then everything, once', async () => {
    const { bench, figures } = await run('delay', { delay_ms: 60_000 }, async (b) => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(b.arrivals).toEqual([]);
    });
    expectEachHandledOnce(bench);
    expect(figures.deliveries_put_off).toBe(EVENTS);
  });

  it('a burst: held for the hold, then released all at once; each handled once', async () => {
    const { bench, figures } = await run('burst', { burst_hold_seconds: 600 }, async (b) => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(b.arrivals).toEqual([]);
    });
    expectEachHandledOnce(bench);
    expect(figures.posts).toBe(EVENTS);
  });

  it('a secret rotation mid-stream: both secrets sign during the grace period, then the new one alone', async () => {
    const e = await emulator({ retryDelaysSeconds: [1, 1, 1] });
    const bench = await chaosBench(e);
    try {
      await bench.emit(EVENTS / 4);
      await bench.settle();
      const rotated = await as(e)
        .post('/_emulator/chaos/rotate-secret')
        .send({ endpoint_id: bench.endpoint.id, grace_seconds: 60 })
        .expect(200);
      // The receiver still knows only the old secret: deliveries in the grace period verify.
      await bench.emit(EVENTS / 4);
      await bench.settle();
      // The team deploys the new secret alone: deliveries still verify, signed by both.
      bench.setSecrets([rotated.body.secret]);
      await bench.emit(EVENTS / 4);
      await bench.settle();
      e.clock.advance(61);
      await bench.emit(EVENTS / 4);
      await bench.settle();
      expectEachHandledOnce(bench);
      expect(bench.arrivals.every((a) => a.status === 200)).toBe(true);
      expect(bench.arrivals.map((a) => a.signatures)).toEqual([
        ...Array(EVENTS / 4).fill(1),
        ...Array(EVENTS / 2).fill(2),
        ...Array(EVENTS / 4).fill(1),
      ]);
      bench.figures('rotation', (await as(e).post('/_emulator/chaos/clear').expect(200)).body.stats);
    } finally {
      await bench.close();
    }
  });
});

describe('the chaos controls', () => {
  it('take the admin key only, refuse a bad rule or an unknown endpoint by name, and are listed in GET /_emulator', async () => {
    const e = await emulator({ chaos: 'duplicates' });
    const made = await as(e)
      .post('/v1/keys')
      .send({ label: 'not admin', scopes: ['webhooks:write'], kind: 'live' })
      .expect(201);
    expect((await as(e, made.body.key).post('/_emulator/chaos').send({ delay_ms: 1 })).status).toBe(403);
    const bad = await as(e).post('/_emulator/chaos').send({ duplicate_rate: 2 }).expect(400);
    expect(bad.body.error.details[0].path).toBe('duplicate_rate');
    expect((await as(e).post('/_emulator/chaos').send({ endpoint_id: 'wh_nope', delay_ms: 1 })).status).toBe(404);
    const rotation = await as(e)
      .post('/_emulator/chaos/rotate-secret')
      .send({ endpoint_id: 'wh_nope', grace_seconds: 1 });
    expect(rotation.status).toBe(404);
    const paths = (await as(e).get('/_emulator').expect(200)).body.controls.map((c: { path: string }) => c.path);
    expect(paths).toEqual(
      expect.arrayContaining(['/_emulator/chaos', '/_emulator/chaos/clear', '/_emulator/chaos/rotate-secret']),
    );
    // Started with a preset: its rule is there, and a reset brings it back after a clear.
    expect((await as(e).post('/_emulator/chaos/clear').expect(200)).body.rules).toEqual([
      expect.objectContaining({ endpoint_id: null, duplicate_rate: 0.5 }),
    ]);
    await as(e).post('/_emulator/reset').expect(200);
    expect(e.dispatcher.chaos.state().rules).toHaveLength(1);
    await expect(emulator({ chaos: 'bogus' as never })).rejects.toThrow(/`chaos` to be one of duplicates, timeouts/);
  });
});
