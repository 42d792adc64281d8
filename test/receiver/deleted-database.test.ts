import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Receiver } from '../../src/receiver/index.js';
import type { Durability } from '../../src/store/index.js';
import { signedDelivery } from '../../src/testing/index.js';
import { tempDir } from '../store/temp-dir.js';
import { expressApp, post, SECRET, sleep, testReceiver } from './harness.js';
import { heldPost } from './held-post.js';

// Issue 13 F3: SQLite keeps writing to a database file that was removed while open, so a receiver
// whose database directory is deleted must stop acking (503) rather than ack into a file that is gone.

let dir: ReturnType<typeof tempDir>;
const receivers: Receiver[] = [];
beforeEach(() => {
  dir = tempDir();
  mkdirSync(dir.path('data'));
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
  dir.remove();
});

function open(durability: Durability, handled: string[]): Receiver {
  const receiver = testReceiver(dir.path('data/inbox.db'), { durability });
  receiver.on('*', ({ deliveryId }) => void handled.push(deliveryId));
  receivers.push(receiver);
  return receiver;
}

const deliveries = (n: number) =>
  Array.from({ length: n }, () => signedDelivery({ secret: SECRET, event: 'ticket.created' }));

async function send(receiver: Receiver, batch: ReturnType<typeof deliveries>) {
  const app = expressApp(receiver);
  const answers = await Promise.all(batch.map((d) => post(app, d)));
  return answers.map((res) => `${res.status} ${res.body.error?.code ?? 'ok'}`);
}

describe.each(['full', 'normal'] as const)('durability %s', (durability) => {
  it('after its directory is removed, every delivery gets 503; deliveries acked before still run, and a restart stores the refused ones', async () => {
    const handled: string[] = [];
    const receiver = open(durability, handled);
    const before = deliveries(5);
    expect(await send(receiver, before)).toEqual(Array(5).fill('200 ok'));

    rmSync(dir.path('data'), { recursive: true });
    const during = deliveries(5);
    // Sent at once (one commit, refused after it) and one by one (refused before writing).
    expect(await send(receiver, during.slice(0, 3))).toEqual(Array(3).fill('503 STORE_UNAVAILABLE'));
    for (const d of during.slice(3)) expect(await send(receiver, [d])).toEqual(['503 STORE_UNAVAILABLE']);

    // What was acked lives on in the open file: this process still runs it, and runs nothing it refused.
    await receiver.start();
    await receiver.idle();
    expect(handled.sort()).toEqual(before.map((d) => d.deliveryId).sort());

    // The directory comes back empty: not the file this process has open, so still 503.
    mkdirSync(dir.path('data'));
    await sleep(1100);
    expect(await send(receiver, during.slice(0, 1))).toEqual(['503 STORE_UNAVAILABLE']);

    // A restart opens a new database at the path; the service's retries of the refused ones are stored and run once.
    await receiver.close();
    const restarted = open(durability, handled);
    await restarted.start();
    expect(await send(restarted, during)).toEqual(Array(5).fill('200 ok'));
    await restarted.idle();
    expect(handled.sort()).toEqual([...before, ...during].map((d) => d.deliveryId).sort());
  });
});

it('a directory moved away and back: 503 while away, then the same receiver stores again', async () => {
  const handled: string[] = [];
  const receiver = open('full', handled);
  await receiver.start();
  expect(await send(receiver, deliveries(1))).toEqual(['200 ok']);
  renameSync(dir.path('data'), dir.path('away'));
  expect(await send(receiver, deliveries(2))).toEqual(Array(2).fill('503 STORE_UNAVAILABLE'));
  renameSync(dir.path('away'), dir.path('data'));
  // Looked at again at most once a second while gone.
  await sleep(1100);
  const after = deliveries(2);
  expect(await send(receiver, after)).toEqual(Array(2).fill('200 ok'));
  await receiver.idle();
  expect(handled).toHaveLength(3);
  expect(handled).toEqual(expect.arrayContaining(after.map((d) => d.deliveryId)));
});

it('once the store knows its file is gone, a delivery is answered 503 from its headers, before its 1 MiB body is sent', async () => {
  const handled: string[] = [];
  const receiver = open('full', handled);
  const server = createServer(receiver.listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  try {
    rmSync(dir.path('data'), { recursive: true });
    // The first write after the removal is what tells the store: that one is refused after its body.
    expect(await send(receiver, deliveries(1))).toEqual(['503 STORE_UNAVAILABLE']);
    const body = Buffer.alloc(1024 * 1024, 'x');
    const { headers } = signedDelivery({ secret: SECRET, event: 'ticket.created' });
    const held = heldPost(url, headers, body, 0);
    const answer = await held.answer;
    expect([answer.status, answer.body.error?.code, answer.headers.connection]).toEqual([
      503,
      'STORE_UNAVAILABLE',
      'close',
    ]);
    // What the headers refuse still hears why, not 503.
    const unsigned = await heldPost(url, { ...headers, 'x-service-signature': '' }, body, 0).answer;
    expect([unsigned.status, unsigned.body.error?.code]).toEqual([401, 'SIGNATURE_MISSING']);
    // Still from the headers after the store has looked at the path again (at most once a second).
    await sleep(1100);
    const later = await heldPost(url, signedDelivery({ secret: SECRET, event: 'ticket.created' }).headers, body, 0)
      .answer;
    expect([later.status, later.body.error?.code]).toEqual([503, 'STORE_UNAVAILABLE']);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  expect((await receiver.store.list()).data).toEqual([]);
});
