import { afterEach, describe, expect, it } from 'vitest';
import { SlotShare } from '../../src/emulator/dispatch/slot-share.js';
import { hungReceiver, type HungReceiver } from '../support/hung-receiver.js';
import { as, cleanup, emulator, receiver } from './platform-harness.js';

afterEach(cleanup);

const HUNG_ENDPOINTS = 10;

async function hungEndpoints(n: number): Promise<HungReceiver[]> {
  const hung = await Promise.all(Array.from({ length: n }, () => hungReceiver()));
  afterEach(() => Promise.all(hung.map((h) => h.close())));
  return hung;
}

/** Polls a condition the test cannot await directly (a request arriving at a receiver). */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 800 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  expect(condition()).toBe(true);
}

describe('fair dispatch across endpoints', () => {
  it('delivers to a healthy endpoint while ten hung ones still hold their connections', async () => {
    const e = await emulator();
    const hung = await hungEndpoints(HUNG_ENDPOINTS);
    for (const h of hung)
      expect(
        (
          await as(e)
            .post('/v1/webhooks')
            .send({ url: h.url, events: ['*'] })
        ).status,
      ).toBe(201);
    const healthy = await receiver();
    expect(
      (
        await as(e)
          .post('/v1/webhooks')
          .send({ url: healthy.url, events: ['*'] })
      ).status,
    ).toBe(201);
    // 15 new conversations: conversation.created and message.received each, so 300 deliveries queue at the hung
    // endpoints, more than a claim's window of due rows: the healthy endpoint's are found past them.
    for (let i = 0; i < 15; i++) {
      const res = await as(e)
        .post('/_emulator/inbound')
        .send({ channel: 'phone', from: { handle: `+1415555${String(6100 + i)}` }, content: 'Hello?' });
      expect(res.status).toBe(201);
    }
    await until(() => healthy.received.length === 30);
    // Every hung endpoint was tried, and no attempt to one has ended yet (the deadline is 8 s): the healthy
    // endpoint did not wait for a hung one's slot. Before, 10 hung endpoints x 2 took all 8 slots.
    expect(hung.every((h) => h.accepted >= 1)).toBe(true);
    expect(hung.reduce((n, h) => n + h.closed, 0)).toBe(0);
    // Each hung endpoint holds at most its two connections, and one at a time once it is known to hang.
    expect(hung.every((h) => h.accepted <= 2)).toBe(true);
  });
});

describe('SlotShare', () => {
  const share = (slowAttemptMs = 60_000) =>
    new SlotShare({ concurrency: 8, perEndpoint: 2, slowAttemptMs, onSlotFreed: () => {} });

  it('gives an endpoint whose last attempt failed one slot, and such endpoints half the slots together', () => {
    const slots = share();
    const registered = new Set(['a', 'b', 'c', 'd', 'e', 'f', 'ok']);
    for (const id of ['a', 'b', 'c', 'd', 'e', 'f']) {
      slots.start(`dlv_${id}`, id);
      slots.finish(`dlv_${id}`, false);
    }
    const round = slots.round(registered);
    const admitted = ['a', 'a', 'b', 'c', 'd', 'e', 'f'].filter((id) => round.admit(id));
    expect(admitted).toEqual(['a', 'b', 'c', 'd']);
    expect(round.full).toBe(false);
    expect([round.admit('ok'), round.admit('ok'), round.admit('ok')]).toEqual([true, true, false]);
    expect(round.full).toBe(true);
    slots.clear();
  });

  it('lets an endpoint that answers again have its two slots back', () => {
    const slots = share();
    slots.start('dlv_1', 'a');
    slots.finish('dlv_1', false);
    slots.start('dlv_2', 'a');
    slots.finish('dlv_2', true);
    const round = slots.round(new Set(['a']));
    expect([round.admit('a'), round.admit('a'), round.admit('a')]).toEqual([true, true, false]);
  });

  it('takes back the slot of an attempt with no answer after the slow threshold', async () => {
    let freed = 0;
    const slots = new SlotShare({ concurrency: 2, perEndpoint: 2, slowAttemptMs: 1, onSlotFreed: () => freed++ });
    const registered = new Set(['hung_0', 'hung_1', 'ok']);
    const round = slots.round(registered);
    for (const id of ['hung_0', 'hung_1']) {
      expect(round.admit(id)).toBe(true);
      slots.start(`dlv_${id}`, id);
    }
    expect(round.full).toBe(true);
    await until(() => freed === 2);
    // Both slots are free again; the hung endpoints keep their connection and get no second one.
    expect(slots.round(registered).open()).toEqual([['ok', 2]]);
    slots.finish('dlv_hung_0', false);
    expect(slots.round(registered).open()).toEqual([
      ['hung_0', 1],
      ['ok', 2],
    ]);
    slots.clear();
  });
});
