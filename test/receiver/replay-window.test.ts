import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReceiver, type Receiver } from '../../src/receiver/index.js';
import { createSqliteStore, type DeliveryStore } from '../../src/store/index.js';
import { signedDelivery } from '../../src/testing/index.js';
import { tempDir } from '../store/temp-dir.js';
import { expressApp, post, SECRET, silent, testReceiver } from './harness.js';

// A captured delivery passes the signature check while its timestamp is within toleranceSeconds of the
// receiver's clock; its done row is what makes a replay of it under a new delivery id a duplicate. So the
// row must outlive the window (README "What the receiver answers": toleranceSeconds and pruneDoneAfterMs).

const DAY_MS = 24 * 3600 * 1000;
let dir: ReturnType<typeof tempDir>;
const open: (Receiver | DeliveryStore)[] = [];

beforeEach(() => {
  dir = tempDir();
});
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
  dir.remove();
});

describe('a receiver opened from dbPath with a tolerance longer than the stores keep done rows', () => {
  it('keeps them longer: a capture replayed after 8 days, within a 10-day tolerance, is still a duplicate', async () => {
    const tolerance = 10 * 24 * 3600;
    const dbPath = dir.path('inbox.db');
    const eightDaysAgo = Date.now() - 8 * DAY_MS;
    const runs: string[] = [];
    // The delivery as it arrived 8 days ago, signed then, and handled.
    const then = testReceiver(dbPath, { toleranceSeconds: tolerance, now: () => eightDaysAgo });
    open.push(then);
    then.on('*', ({ deliveryId }) => void runs.push(deliveryId));
    await then.start();
    const captured = signedDelivery({
      secret: SECRET,
      event: 'ticket.created',
      timestamp: Math.floor(eightDaysAgo / 1000),
    });
    await post(expressApp(then), captured).expect(200);
    await then.idle();
    expect((await then.store.get(captured.deliveryId))?.status).toBe('done');
    await then.close();

    // Today: the receiver opens the file again (its store prunes on open) and the capture comes back.
    const now = testReceiver(dbPath, { toleranceSeconds: tolerance });
    open.push(now);
    now.on('*', ({ deliveryId }) => void runs.push(deliveryId));
    await now.start();
    const replay = await post(expressApp(now), captured, { 'x-service-delivery': 'dlv_replayed_capture' }).expect(200);
    expect(replay.body).toEqual({ received: true, delivery_id: 'dlv_replayed_capture', duplicate: true });
    await now.idle();
    expect(runs).toEqual([captured.deliveryId]);
    expect(now.store.pruneDoneAfterMs).toBe(2 * tolerance * 1000);
  });

  it('keeps the stores’ 7 days for the default tolerance', async () => {
    const receiver = testReceiver(dir.path('default.db'));
    open.push(receiver);
    expect(receiver.store.pruneDoneAfterMs).toBe(7 * DAY_MS);
  });
});

describe('a receiver given a store of its own', () => {
  const store = (pruneDoneAfterMs: number | null) => {
    const opened = createSqliteStore({ path: dir.path('own.db'), pruneDoneAfterMs });
    open.push(opened);
    return opened;
  };

  it('refuses a store that prunes done rows within the tolerance window, naming both options', () => {
    expect(() =>
      createReceiver({ secret: SECRET, store: store(3_600_000), toleranceSeconds: 7200, logger: silent }),
    ).toThrow(
      /`toleranceSeconds` 7200 lets a captured delivery pass the signature check for up to 14400000 ms after it arrives, but the store prunes done rows after `pruneDoneAfterMs` 3600000 ms.*at least 14400000 \(or null\)/,
    );
  });

  it.each([
    ['twice the tolerance', 3_600_000, 1800],
    ['longer', 7 * DAY_MS, 7200],
    ['never pruned', null, 30 * 24 * 3600],
  ] as const)('takes one that keeps them %s', (_what, pruneDoneAfterMs, toleranceSeconds) => {
    const receiver = createReceiver({
      secret: SECRET,
      store: store(pruneDoneAfterMs),
      toleranceSeconds,
      logger: silent,
    });
    open.push(receiver);
    expect(receiver.store.pruneDoneAfterMs).toBe(pruneDoneAfterMs);
  });
});
