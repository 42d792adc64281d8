import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import { createReceiver, ReceiverError, type EventContext, type Receiver } from '../../src/receiver/index.js';
import { createSqliteStore } from '../../src/store/index.js';
import { signedDelivery, type SignedDelivery } from '../../src/testing/index.js';
import { tempDir } from '../store/temp-dir.js';
import { capturingLogger, expressApp, post, SECRET, silent, sleep, testReceiver } from './harness.js';

let dir: ReturnType<typeof tempDir>;
const open: Receiver[] = [];
beforeEach(() => {
  dir = tempDir();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
  dir.remove();
});

function make(options: Parameters<typeof testReceiver>[1] = {}): Receiver {
  const receiver = testReceiver(dir.path(`r${open.length}.db`), options);
  open.push(receiver);
  return receiver;
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

async function listen(receiver: Receiver): Promise<{ url: string; server: Server }> {
  const server = createServer(receiver.listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

const send = (url: string, d: SignedDelivery) => fetch(url, { method: 'POST', headers: d.headers, body: d.body });

describe('deduplication', () => {
  it('one delivery id sent 50 times at once gives one row and one handler run', async () => {
    const receiver = make();
    let runs = 0;
    receiver.on('message.received', () => void runs++);
    await receiver.start();
    const { url, server } = await listen(receiver);
    const delivery = signedDelivery({ secret: SECRET, event: 'message.received' });
    const responses = await Promise.all(Array.from({ length: 50 }, () => send(url, delivery)));
    const bodies = await Promise.all(responses.map((r) => r.json() as Promise<{ duplicate: boolean }>));
    server.close();
    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect(bodies.filter((b) => !b.duplicate)).toHaveLength(1);
    await receiver.idle();
    expect(runs).toBe(1);
    expect((await receiver.store.list()).data).toHaveLength(1);
  });
});

describe('retries', () => {
  it('retries a throwing handler, then marks it dead after maxAttempts and tells onError once', async () => {
    const receiver = make({ maxAttempts: 3 });
    const attempts: number[] = [];
    const errors: [ReceiverError, unknown][] = [];
    receiver.on('ticket.created', ({ attempt }) => {
      attempts.push(attempt);
      throw new Error(`downstream down (${attempt})`);
    });
    receiver.onError((error, info) => void errors.push([error, info]));
    await receiver.start();
    const delivery = signedDelivery({ secret: SECRET, event: 'ticket.created' });
    await post(expressApp(receiver), delivery).expect(200);
    await receiver.idle();
    expect(attempts).toEqual([1, 2, 3]);
    expect(errors).toHaveLength(1);
    expect(errors[0]![0]).toBeInstanceOf(ReceiverError);
    expect(errors[0]![0].code).toBe('HANDLER_FAILED');
    expect(errors[0]![1]).toEqual({ deliveryId: delivery.deliveryId, event: 'ticket.created', attempt: 3 });
    expect(await receiver.store.get(delivery.deliveryId)).toMatchObject({
      status: 'dead',
      lastError: expect.stringContaining('downstream down (3)'),
    });
    expect((await receiver.store.attempts(delivery.deliveryId)).map((a) => a.outcome)).toEqual([
      'failed',
      'failed',
      'dead',
    ]);
  });

  it('a handler that fails once and then succeeds ends done, without onError', async () => {
    const receiver = make();
    let calls = 0;
    const errors: unknown[] = [];
    receiver.on('*', () => {
      if (++calls === 1) throw new Error('first time unlucky');
    });
    receiver.onError((e) => void errors.push(e));
    await receiver.start();
    const delivery = signedDelivery({ secret: SECRET, event: 'contact.opted_in' });
    await post(expressApp(receiver), delivery).expect(200);
    await receiver.idle();
    expect(calls).toBe(2);
    expect(errors).toEqual([]);
    expect(await receiver.store.get(delivery.deliveryId)).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('a handler that overruns handlerTimeoutMs fails with HANDLER_TIMEOUT and its signal is aborted', async () => {
    const receiver = make({ handlerTimeoutMs: 50, maxAttempts: 1 });
    let aborted = false;
    const errors: ReceiverError[] = [];
    receiver.on(
      '*',
      ({ signal }) =>
        new Promise<void>((resolve) => signal.addEventListener('abort', () => ((aborted = true), resolve()))),
    );
    receiver.onError((e) => void errors.push(e));
    await receiver.start();
    await post(expressApp(receiver), signedDelivery({ secret: SECRET, event: 'ticket.closed' })).expect(200);
    await receiver.idle();
    expect(aborted).toBe(true);
    expect(errors.map((e) => e.code)).toEqual(['HANDLER_TIMEOUT']);
  });

  it('data failing its event schema is kept dead at once, reported, never handled, and can be requeued', async () => {
    const log = capturingLogger();
    const receiver = make({ logger: log.logger });
    let handled = 0;
    const errors: ReceiverError[] = [];
    receiver.on('ticket.created', () => void handled++);
    receiver.onError((e) => void errors.push(e));
    await receiver.start();
    const delivery = signedDelivery({
      secret: SECRET,
      event: 'ticket.created',
      overrides: { data: { priority: 'extreme' as never } },
    });
    await post(expressApp(receiver), delivery).expect(200);
    await receiver.idle();
    expect(handled).toBe(0);
    expect(errors.map((e) => e.code)).toEqual(['EVENT_SCHEMA_MISMATCH']);
    expect(errors[0]!.message).toMatch(/priority/);
    expect(errors[0]!.cause).toMatchObject({ name: 'ZodError' });
    // The log names the issues once, compactly: not the ZodError's JSON message and stack (about 8 KB).
    const dead = log.records().find((r) => String(r.msg).startsWith('delivery is dead'))!;
    expect(dead.err).toMatchObject({
      type: 'ReceiverError',
      code: 'EVENT_SCHEMA_MISMATCH',
      message: errors[0]!.message,
    });
    expect(dead.issues).toEqual([{ path: 'priority', message: expect.stringMatching(/option|expected/) }]);
    expect(JSON.stringify(dead)).not.toMatch(/ZodError|caused by/);
    expect(JSON.stringify(dead).length).toBeLessThan(3000);
    expect(await receiver.store.get(delivery.deliveryId)).toMatchObject({ status: 'dead', attempts: 1 });
    await expect(receiver.store.requeue([delivery.deliveryId])).resolves.toBe(1);
  });
});

describe('routing', () => {
  it('gives known events typed data in registration order, and unknown events only to `*`', async () => {
    const receiver = make();
    const seen: string[] = [];
    receiver.on('ticket.created', ({ data, known }) => {
      expectTypeOf(data.priority).toEqualTypeOf<'low' | 'normal' | 'high' | 'urgent'>();
      seen.push(`exact:${data.priority}:${known}`);
    });
    receiver.on('ticket.*', ({ event }) => {
      expectTypeOf(event).toEqualTypeOf<'ticket.created' | 'ticket.updated' | 'ticket.assigned' | 'ticket.closed'>();
      seen.push(`ns:${event}`);
    });
    receiver.on('*', (context: EventContext<'*'>) => {
      if (!context.known) expectTypeOf(context.data).toEqualTypeOf<Record<string, unknown>>();
      seen.push(`all:${context.event}:${context.known}`);
    });
    await receiver.start();
    const app = expressApp(receiver);
    await post(app, signedDelivery({ secret: SECRET, event: 'ticket.created' })).expect(200);
    await receiver.idle();
    await post(
      app,
      signedDelivery({ secret: SECRET, envelope: { id: 'evt_x', event: 'ticket.merged', data: { into: 'tkt_2' } } }),
    ).expect(200);
    await receiver.idle();
    expect(seen).toEqual([
      'exact:high:true',
      'ns:ticket.created',
      'all:ticket.created:true',
      'all:ticket.merged:false',
    ]);
  });

  it('refuses a pattern the service would not accept, with the pattern named', () => {
    const receiver = make();
    expect(() => receiver.on('tickets.*' as never, () => undefined)).toThrow(/`tickets\.\*`/);
  });
});

describe('the ack path', () => {
  it('a handler still running does not delay the ack', async () => {
    const receiver = make();
    const order: string[] = [];
    const started = deferred();
    // The handler ends only once the ack is in: an ack that waited for it would never come (the test times out).
    const acked = deferred();
    receiver.on('*', async () => {
      order.push('handler started');
      started.resolve();
      await acked.promise;
      order.push('handler finished');
    });
    await receiver.start();
    await post(expressApp(receiver), signedDelivery({ secret: SECRET, event: 'message.sent' })).expect(200);
    order.push('acked');
    acked.resolve();
    await started.promise;
    await receiver.idle();
    expect(order.indexOf('acked')).toBeLessThan(order.indexOf('handler finished'));
    expect(order).toContain('handler started');
  }, 20_000);

  it('never runs more handlers than `concurrency`; the rest wait in the store, not in memory', async () => {
    const receiver = make({ concurrency: 3 });
    const gate = deferred();
    let running = 0;
    let peak = 0;
    receiver.on('*', async () => {
      peak = Math.max(peak, ++running);
      await gate.promise;
      running--;
    });
    await receiver.start();
    const app = expressApp(receiver);
    for (let i = 0; i < 20; i++)
      await post(app, signedDelivery({ secret: SECRET, event: 'message.received' })).expect(200);
    while (running < 3) await sleep(10);
    const processing = await receiver.store.list({ status: 'processing' });
    const pending = await receiver.store.list({ status: 'pending' });
    expect(processing.data).toHaveLength(3);
    expect(pending.data).toHaveLength(17);
    gate.resolve();
    await receiver.idle();
    expect(peak).toBe(3);
    expect((await receiver.store.list({ status: 'done' })).data).toHaveLength(20);
  });

  it('close() lets a running handler finish, then refuses new deliveries with 503', async () => {
    const store = createSqliteStore({ path: dir.path('shared.db') });
    const receiver = createReceiver({ secret: SECRET, store, logger: silent, pollIntervalMs: 20 });
    const gate = deferred();
    const entered = deferred();
    let finished = false;
    receiver.on('*', async () => {
      entered.resolve();
      await gate.promise;
      finished = true;
    });
    await receiver.start();
    const app = expressApp(receiver);
    const delivery = signedDelivery({ secret: SECRET, event: 'ticket.updated' });
    await post(app, delivery).expect(200);
    await entered.promise;
    const closed = receiver.close();
    const refused = await post(app, signedDelivery({ secret: SECRET, event: 'ticket.updated' })).expect(503);
    expect(refused.body.error.code).toBe('RECEIVER_CLOSING');
    gate.resolve();
    await closed;
    expect(finished).toBe(true);
    expect(await store.get(delivery.deliveryId)).toMatchObject({ status: 'done' });
    await store.close();
  });
});

describe('options', () => {
  it.each([
    [{ dbPath: 'x.db' }, /^No secret given\. Pass `secret` \(the endpoint's whsec_… secret\) or `secrets`/],
    // The README's `secret: process.env.CONVO_KIT_WEBHOOK_SECRET!` with the variable unset.
    [
      { secret: undefined, dbPath: 'x.db' },
      /`secret` is undefined \(is the environment variable it is read from set\?\)/,
    ],
    [{ secret: SECRET, secrets: [SECRET], dbPath: 'x.db' }, /exactly one of `secret`/],
    [{ secret: SECRET }, /exactly one of `dbPath`/],
    [{ secret: '', dbPath: 'x.db' }, /`secret`/],
    // Fixed secrets are checked at start-up, not met as a 503 by every delivery.
    [{ secrets: [], dbPath: 'x.db' }, /`secrets` to be one or more non-empty secrets/],
    [{ secrets: [SECRET, ''], dbPath: 'x.db' }, /`secrets` to be one or more non-empty secrets/],
    [{ secret: SECRET, dbPath: 'x.db', concurrency: 0 }, /`concurrency` to be an integer from 1 and up, got `0`/],
    [{ secret: SECRET, dbPath: 'x.db', maxAttempts: 1.5 }, /`maxAttempts`/],
    [{ secret: SECRET, dbPath: 'x.db', processBeforeResponse: true, handlerTimeoutMs: 9000 }, /8 s deadline/],
    [{ secret: SECRET, dbPath: 'x.db', storeThread: 'yes' }, /`storeThread` to be a boolean, got `yes`/],
    // Options for opening `dbPath`, beside a store of one's own, would be silently ignored.
    [{ secret: SECRET, store: {}, durability: 'normal' }, /`durability` applies to the store opened from `dbPath`/],
    [{ secret: SECRET, store: {}, storeThread: true }, /`storeThread` applies to the store opened from `dbPath`/],
  ])('refuses %j with the option named', (options, message) => {
    expect(() => createReceiver({ logger: silent, ...options } as never)).toThrow(message);
  });
});
