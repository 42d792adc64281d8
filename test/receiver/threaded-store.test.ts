import Database from 'better-sqlite3';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createReceiver, type Receiver } from '../../src/receiver/index.js';
import { createSqliteStore, type DeliveryStore } from '../../src/store/index.js';
import { signedDelivery } from '../../src/testing/index.js';
import { tempDir } from '../store/temp-dir.js';
import { SECRET, silent } from './harness.js';

// A receiver whose SQLite store runs on the store thread (`thread: true`), over a real listening server.

let dir: ReturnType<typeof tempDir>;
let store: DeliveryStore;
let receiver: Receiver;
beforeEach(() => {
  dir = tempDir();
  store = createSqliteStore({ path: dir.path('inbox.db'), thread: true });
  receiver = createReceiver({ secret: SECRET, store, logger: silent, pollIntervalMs: 20 });
});
afterEach(async () => {
  await receiver.close();
  await store.close();
  dir.remove();
});

it('acks each delivery once it is committed, dedupes a resend, and runs every handler once', async () => {
  const handled: string[] = [];
  receiver.on('ticket.created', ({ deliveryId }) => void handled.push(deliveryId));
  await receiver.start();
  const server = createServer(receiver.listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  try {
    const deliveries = Array.from({ length: 40 }, () => signedDelivery({ secret: SECRET, event: 'ticket.created' }));
    const send = (d: (typeof deliveries)[number]) =>
      fetch(url, { method: 'POST', headers: d.headers, body: d.body }).then(async (res) => ({
        status: res.status,
        duplicate: ((await res.json()) as { duplicate?: boolean }).duplicate,
      }));
    // Sent at once: many share a turn of the event loop, and so a message to the thread and a commit.
    expect(await Promise.all(deliveries.map(send))).toEqual(Array(40).fill({ status: 200, duplicate: false }));
    expect(await send(deliveries[0]!)).toEqual({ status: 200, duplicate: true });
    await receiver.idle();
    expect(handled.sort()).toEqual(deliveries.map((d) => d.deliveryId).sort());
    const { data } = await store.list({ status: 'done', limit: 100 });
    expect(data).toHaveLength(40);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

it("from `dbPath` with `storeThread`, waits out another connection's lock off the event loop", async () => {
  const fromPath = createReceiver({
    secret: SECRET,
    dbPath: dir.path('shortcut.db'),
    storeThread: true,
    logger: silent,
  });
  await fromPath.store.list({ limit: 1 }); // the file and its tables exist before the lock is taken
  const other = new Database(dir.path('shortcut.db'));
  try {
    other.exec('BEGIN IMMEDIATE');
    // The lock is let go by the event loop itself, after it has turned 20 times during the write: were the
    // store's busy wait on the event loop, the loop could not turn, and the wait would run out (503).
    // Counted in turns, not milliseconds, so a loaded machine changes nothing.
    let ticks = 0;
    const timer = setInterval(() => {
      if (++ticks === 20) other.exec('ROLLBACK');
    }, 10);
    const delivery = signedDelivery({ secret: SECRET, event: 'ticket.created' });
    const answer = await fromPath.handle({ headers: delivery.headers, rawBody: delivery.body });
    clearInterval(timer);
    expect(answer.status).toBe(200);
    expect(ticks).toBeGreaterThanOrEqual(20);
    expect(await fromPath.store.get(delivery.deliveryId)).toMatchObject({ status: 'pending' });
  } finally {
    other.close();
    await fromPath.close();
  }
});
