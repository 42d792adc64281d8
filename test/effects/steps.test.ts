import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import { type ReceiverError, type EventContext, type Receiver } from '../../src/receiver/index.js';
import { MAX_STEP_RESULT_BYTES } from '../../src/store/index.js';
import { signedDelivery } from '../../src/testing/index.js';
import { tempDir } from '../store/temp-dir.js';
import { expressApp, post, SECRET, testReceiver } from '../receiver/harness.js';
import { emulatorServer, OPEN_CONVERSATION, type EmulatorServer } from './emulator-server.js';

let dir: ReturnType<typeof tempDir>;
const open: Receiver[] = [];
let emulator: EmulatorServer | undefined;
beforeEach(() => {
  dir = tempDir();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
  await emulator?.close();
  emulator = undefined;
  dir.remove();
});

function make(options: Parameters<typeof testReceiver>[1] = {}): Receiver {
  const receiver = testReceiver(dir.path(`r${open.length}.db`), { maxAttempts: 3, ...options });
  open.push(receiver);
  return receiver;
}

/** Posts one signed ticket.created delivery (a fresh event id unless given) and waits until nothing is due. */
async function deliver(
  receiver: Receiver,
  eventId = `evt_${Math.random().toString(36).slice(2)}`,
  deliveryId?: string,
) {
  const d = signedDelivery({ secret: SECRET, event: 'ticket.created', overrides: { id: eventId }, deliveryId });
  expect((await post(expressApp(receiver), d)).status).toBe(200);
  await receiver.idle();
  return { deliveryId: d.deliveryId, eventId };
}

describe('ctx.step', () => {
  it('runs a step once per event: a retry after a later failure gets the journaled result without running it', async () => {
    const receiver = make();
    const runs: number[] = [];
    const seen: unknown[] = [];
    receiver.on('ticket.created', async ({ step, attempt }) => {
      const value = await step('reserve', () => {
        runs.push(attempt);
        return { reservation: `r-${attempt}`, at: [attempt] };
      });
      seen.push(value);
      if (attempt === 1) throw new Error('downstream down after the step');
    });
    await receiver.start();
    const { deliveryId, eventId } = await deliver(receiver);
    expect(runs).toEqual([1]);
    expect(seen).toEqual([
      { reservation: 'r-1', at: [1] },
      { reservation: 'r-1', at: [1] },
    ]);
    expect((await receiver.store.get(deliveryId))!.status).toBe('done');
    const steps = await receiver.store.deliverySteps(deliveryId);
    expect(steps).toMatchObject([
      { eventKey: eventId, name: 'reserve', deliveryId, attempt: 1, outcome: 'done', error: null },
    ]);
    expect(JSON.parse(steps[0]!.result!)).toEqual({ reservation: 'r-1', at: [1] });
  });

  it('runs a step that threw again on the next attempt, and shows the failure it replaced', async () => {
    const receiver = make();
    let runs = 0;
    receiver.on('ticket.created', async ({ step }) => {
      await step('flaky', () => {
        runs++;
        if (runs === 1) throw new Error('CRM timed out');
        return 'ok';
      });
    });
    await receiver.start();
    const { deliveryId } = await deliver(receiver);
    expect(runs).toBe(2);
    expect(await receiver.store.deliverySteps(deliveryId)).toMatchObject([
      { name: 'flaky', outcome: 'done', attempt: 2, result: '"ok"', error: null },
    ]);
    expect((await receiver.store.attempts(deliveryId)).map((a) => a.error)).toEqual([
      expect.stringContaining('CRM timed out'),
      null,
    ]);
  });

  it('keeps a step that returns nothing, and a later attempt gets undefined back', async () => {
    const receiver = make();
    const got: unknown[] = [];
    receiver.on('ticket.created', async ({ step, attempt }) => {
      got.push(await step('notify', () => undefined));
      if (attempt === 1) throw new Error('again');
    });
    await receiver.start();
    await deliver(receiver);
    expect(got).toEqual([undefined, undefined]);
  });

  it('a duplicate delivery of the event under a new delivery id, and a replay, run no step again', async () => {
    // Handlers run before the answer, so no worker races replay() for the row.
    const receiver = make({ processBeforeResponse: true });
    let runs = 0;
    let handled = 0;
    receiver.on('ticket.created', async ({ step }) => {
      handled++;
      await step('once', () => ++runs);
    });
    const first = await deliver(receiver);
    await deliver(receiver, first.eventId);
    expect(await receiver.replay(first.deliveryId)).toBe('done');
    expect(handled).toBe(2);
    expect(runs).toBe(1);
  });

  it('replay with rerunSteps clears the event’s journal, so its steps run again', async () => {
    const receiver = make({ processBeforeResponse: true });
    let runs = 0;
    receiver.on('ticket.created', async ({ step }) => void (await step('count', () => ++runs)));
    const { deliveryId } = await deliver(receiver);
    expect(await receiver.replay(deliveryId, { rerunSteps: true })).toBe('done');
    expect(runs).toBe(2);
    expect(await receiver.store.deliverySteps(deliveryId)).toMatchObject([{ name: 'count', result: '2' }]);
  });

  it('journals each step of a threaded store too', async () => {
    const receiver = make({ storeThread: true });
    const runs: string[] = [];
    receiver.on('ticket.created', async ({ step, attempt }) => {
      await step('a', () => void runs.push(`a${attempt}`));
      await step('b', () => void runs.push(`b${attempt}`));
      if (attempt === 1) throw new Error('after both');
    });
    await receiver.start();
    const { deliveryId } = await deliver(receiver);
    expect(runs).toEqual(['a1', 'b1']);
    expect((await receiver.store.deliverySteps(deliveryId)).map((s) => s.name)).toEqual(['a', 'b']);
  });
});

describe('bad steps: a clear error, and the delivery is retried, never lost', () => {
  const cases: [string, (ctx: EventContext) => Promise<unknown>, string, RegExp][] = [
    [
      'a result over MAX_STEP_RESULT_BYTES',
      (c) => c.step('big', () => 'x'.repeat(MAX_STEP_RESULT_BYTES)),
      'STEP_RESULT_TOO_LARGE',
      /Step "big" returned 65538 bytes of JSON; the journal keeps at most 65536/,
    ],
    [
      'a Date',
      (c) => c.step('when', () => ({ at: new Date() })),
      'STEP_RESULT_NOT_JSON',
      /Step "when" returned a Date at \.at/,
    ],
    [
      'a function',
      (c) => c.step('fn', () => ({ list: [1, () => 2] })),
      'STEP_RESULT_NOT_JSON',
      /returned a function at \.list\[1\]/,
    ],
    [
      'a circular value',
      (c) =>
        c.step('cycle', () => {
          const a: Record<string, unknown> = {};
          a.self = a;
          return a;
        }),
      'STEP_RESULT_NOT_JSON',
      /a circular reference at \.self/,
    ],
    ['NaN', (c) => c.step('nan', () => NaN), 'STEP_RESULT_NOT_JSON', /returned NaN/],
    [
      'a name used twice',
      async (c) => {
        await c.step('same', () => 1);
        await c.step('same', () => 2);
      },
      'STEP_NAME_REUSED',
      /Step name "same" is used twice in one run/,
    ],
    ['an empty name', (c) => c.step('', () => 1), 'STEP_NAME_INVALID', /1 to 200 characters/],
    [
      'ctx.transaction on SQLite',
      (c) => c.transaction('row', () => 1),
      'TRANSACTION_UNSUPPORTED',
      /needs .* the PostgreSQL store \(createPostgresStore\)\. With the SQLite store, use ctx\.step/,
    ],
    [
      'ctx.client without a client',
      async (c) => c.client.tickets.get({ id: 'tkt_1' }),
      'CLIENT_NOT_CONFIGURED',
      /createReceiver\(\{ …, client: createClient\(\{ apiKey \}\) \}\) \(the `client` option\)/,
    ],
  ];
  for (const [what, misuse, code, message] of cases) {
    it(`${what}: ${code}`, async () => {
      const receiver = make({ maxAttempts: 2 });
      const errors: ReceiverError[] = [];
      receiver.on('ticket.created', (ctx) => misuse(ctx));
      receiver.onError((error) => void errors.push(error));
      await receiver.start();
      const { deliveryId } = await deliver(receiver);
      const attempts = await receiver.store.attempts(deliveryId);
      expect(attempts.map((a) => a.outcome)).toEqual(['failed', 'dead']);
      expect(attempts[0]!.error).toMatch(message);
      expect(errors.map((e) => e.code)).toEqual([code]);
      // Kept, for a replay once the handler is fixed.
      expect((await receiver.store.get(deliveryId))!.status).toBe('dead');
    });
  }
});

describe('ctx.client', () => {
  it('sends once per event: a send whose journal entry was lost is answered by the service as a replay', async () => {
    emulator = await emulatorServer();
    const receiver = make({ client: emulator.client, processBeforeResponse: true });
    const replayed: boolean[] = [];
    receiver.on('ticket.created', async ({ client, eventId }) => {
      const sent = await client.conversations
        .sendMessage({ id: OPEN_CONVERSATION, content: `ack ${eventId}` })
        .withResponse();
      replayed.push(sent.response.idempotentReplayed);
      await client.messages.send({ conversation_id: OPEN_CONVERSATION, content: `second ${eventId}` });
    });
    const { deliveryId, eventId } = await deliver(receiver);
    expect((await receiver.store.deliverySteps(deliveryId)).map((s) => s.name)).toEqual([
      'conversations.sendMessage:1',
      'messages.send:1',
    ]);
    // A replay keeps the journal: nothing is sent, the journaled answer comes back.
    expect(await receiver.replay(deliveryId)).toBe('done');
    // As if the process died after the service took the sends and before they were journaled.
    expect(await receiver.store.clearSteps([deliveryId])).toBe(2);
    expect(await receiver.replay(deliveryId)).toBe('done');
    expect(replayed).toEqual([false, false, true]);
    expect(await emulator.messages(`ack ${eventId}`)).toHaveLength(1);
    expect(await emulator.messages(`second ${eventId}`)).toHaveLength(1);
  });

  it('keeps a key the caller gives, names a step as asked, and journals reads', async () => {
    emulator = await emulatorServer();
    const receiver = make({ client: emulator.client });
    const keys: (string | null)[] = [];
    receiver.on('ticket.created', async ({ client, eventId, attempt }) => {
      const own = await client.messages
        .send({ conversation_id: OPEN_CONVERSATION, content: `own ${eventId}`, idempotencyKey: `mine-${eventId}` })
        .withResponse();
      keys.push(own.response.idempotencyKey);
      const derived = await client.messages
        .send({ conversation_id: OPEN_CONVERSATION, content: `named ${eventId}` }, { step: 'welcome' })
        .withResponse();
      keys.push(derived.response.idempotencyKey);
      await client.conversations.get({ id: OPEN_CONVERSATION });
      if (attempt === 1) throw new Error('after the sends');
    });
    await receiver.start();
    const { deliveryId, eventId } = await deliver(receiver);
    expect(keys[0]).toBe(`mine-${eventId}`);
    expect(keys[1]).toMatch(/^ck_[A-Za-z0-9_-]{43}$/);
    // The second attempt got the journaled answers, keys included.
    expect(keys.slice(2)).toEqual(keys.slice(0, 2));
    expect((await receiver.store.deliverySteps(deliveryId)).map((s) => s.name)).toEqual([
      'messages.send:1',
      'welcome',
      'conversations.get:1',
    ]);
    expect(await emulator.messages(`named ${eventId}`)).toHaveLength(1);
  });

  it('walks a paginated read page by page, each page a step of its own', async () => {
    emulator = await emulatorServer();
    const receiver = make({ client: emulator.client });
    let count = 0;
    receiver.on('ticket.created', async ({ client }) => {
      count = 0;
      for await (const message of client.conversations.listMessages({ id: OPEN_CONVERSATION, limit: 2 })) {
        if (message.id) count++;
      }
    });
    await receiver.start();
    const { deliveryId } = await deliver(receiver);
    const names = (await receiver.store.deliverySteps(deliveryId)).map((s) => s.name);
    expect(names[0]).toBe('conversations.listMessages:1');
    expect(names.slice(1)).toEqual(names.slice(1).map((_, i) => `conversations.listMessages:1/page ${i + 2}`));
    expect(count).toBeGreaterThan(2);
  });

  it('refuses a `client` that createClient did not make, naming the option', () => {
    expect(() => make({ client: {} as never })).toThrow(/Expected `client` to be a client made by createClient\(\)/);
  });
});

describe('types', () => {
  it('types a step by what fn resolves to, an ApiPromise or a PromiseLike included', () => {
    const handler = async ({ step, client }: EventContext) => {
      const sent = await step('send', () => client.messages.send({ conversation_id: 'conv_1', content: 'hi' }));
      expectTypeOf(sent.id).toEqualTypeOf<string>();
      const n = await step('count', async () => 1);
      expectTypeOf(n).toEqualTypeOf<number>();
    };
    expect(typeof handler).toBe('function');
  });
});
