import { afterEach, describe, expect, it } from 'vitest';
import { createReceiver, type Receiver } from '../../src/receiver/index.js';
import { createSqliteStore, type DeliveryStore } from '../../src/store/index.js';
import { createPostgresStore } from '../../src/store/postgres/index.js';
import { signedDelivery } from '../../src/testing/index.js';
import { PG_HOW_TO, PG_URL, pgTestSchema } from '../store/pg-schema.js';
import { tempDir } from '../store/temp-dir.js';
import { SECRET, silent, sleep } from './harness.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Two receivers on one inbox, each with its own store handle, as two processes would have. */
function twoReceivers(open: () => DeliveryStore, leaseMs: number): Receiver[] {
  return [0, 1].map(() => {
    const store = open();
    const receiver = createReceiver({ secret: SECRET, store, logger: silent, pollIntervalMs: 50, leaseMs });
    cleanups.push(async () => {
      await receiver.close();
      await store.close();
    });
    return receiver;
  });
}

const inboxes: [string, () => () => DeliveryStore][] = [
  [
    'SQLite',
    () => {
      const dir = tempDir();
      cleanups.push(dir.remove);
      return () => createSqliteStore({ path: dir.path('inbox.db') });
    },
  ],
];
if (PG_URL)
  inboxes.push([
    'PostgreSQL',
    () => {
      const schema = pgTestSchema();
      cleanups.push(schema.drop);
      return () => createPostgresStore({ connectionString: PG_URL, schema: schema.name, poolSize: 3 });
    },
  ]);
else it.skip(`lease renewal on PostgreSQL ${PG_HOW_TO}`);

describe.each(inboxes)('lease renewal (%s)', (_name, inbox) => {
  it('a handler running three leases long keeps its row: the other receiver never runs it meanwhile', async () => {
    const receivers = twoReceivers(inbox(), 1000);
    const runs: { id: string; by: number; start: number; end?: number }[] = [];
    receivers.forEach((receiver, by) =>
      receiver.on('*', async ({ deliveryId }) => {
        const run: (typeof runs)[number] = { id: deliveryId, by, start: Date.now() };
        runs.push(run);
        await sleep(3000);
        run.end = Date.now();
      }),
    );
    const d = signedDelivery({ secret: SECRET, event: 'ticket.created' });
    const answer = await receivers[0]!.handle({ headers: d.headers, rawBody: d.body });
    expect(answer.status).toBe(200);
    await Promise.all(receivers.map((r) => r.start()));
    await expect.poll(() => runs[0]?.end, { timeout: 10_000, interval: 100 }).toBeDefined();
    await sleep(1500); // more than a lease after the end: a wrongly expired lease would show up as a second run
    expect(runs).toHaveLength(1);
    expect(await receivers[1]!.store.attempts(d.deliveryId)).toMatchObject([{ attempt: 1, outcome: 'done' }]);
  }, 20_000);

  it('a receiver whose lease was taken stops its attempt (LEASE_LOST) and does not settle the row', async () => {
    const open = inbox();
    const [receiver] = twoReceivers(open, 1000);
    const other = open();
    cleanups.push(() => other.close());
    let seenAbort: unknown;
    receiver!.on('*', async ({ signal }) => {
      // Another worker takes the row as if our lease had lapsed while this process stalled.
      await other.requeue([d.deliveryId], Date.now() + 60_000);
      await other.claimById(d.deliveryId, { owner: 'thief', leaseMs: 60_000 });
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      seenAbort = signal.reason;
    });
    const d = signedDelivery({ secret: SECRET, event: 'ticket.created' });
    await receiver!.handle({ headers: d.headers, rawBody: d.body });
    await receiver!.start();
    await expect.poll(() => seenAbort).toMatchObject({ code: 'LEASE_LOST' });
    await sleep(200);
    expect(await other.get(d.deliveryId)).toMatchObject({ status: 'processing', leaseOwner: 'thief' });
  }, 30_000); // the poll above waits up to 15 s (vitest.config.ts) for a busy machine
});

it('refuses a lease shorter than a second, with the option named', () => {
  expect(() => createReceiver({ secret: SECRET, dbPath: ':memory:', leaseMs: 500 })).toThrow(/`leaseMs`/);
});
