import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Receiver } from '../../src/receiver/index.js';
import { signedDelivery } from '../../src/testing/index.js';
import { tempDir } from '../store/temp-dir.js';
import { expressApp, post, SECRET, testReceiver } from './harness.js';

let dir: ReturnType<typeof tempDir>;
let receiver: Receiver;
beforeEach(() => {
  dir = tempDir();
  receiver = testReceiver(dir.path('serverless.db'), { processBeforeResponse: true });
});
afterEach(async () => {
  await receiver.close();
  dir.remove();
});

describe('processBeforeResponse (serverless hosts)', () => {
  it('runs the handlers before answering, without start()', async () => {
    const order: string[] = [];
    receiver.on('ticket.created', async ({ data }) => {
      await new Promise((r) => setTimeout(r, 50));
      order.push(`handled ${data.id}`);
    });
    const res = await post(expressApp(receiver), signedDelivery({ secret: SECRET, event: 'ticket.created' })).expect(
      200,
    );
    order.push('answered');
    expect(res.body).toMatchObject({ duplicate: false, processed: true });
    expect(order).toEqual(['handled tkt_3Rf9Wc2Nd6Ue', 'answered']);
  });

  it('answers a replay under a new delivery id with the first run: processed, not run again', async () => {
    let runs = 0;
    receiver.on('*', () => void runs++);
    const app = expressApp(receiver);
    const delivery = signedDelivery({ secret: SECRET, event: 'ticket.created' });
    await post(app, delivery).expect(200);
    const replay = await post(app, delivery, { 'x-service-delivery': 'dlv_replayed' }).expect(200);
    expect(replay.body).toEqual({ received: true, delivery_id: 'dlv_replayed', duplicate: true, processed: true });
    expect(runs).toBe(1);
  });

  it("answers 500 when a handler fails, and processes the service's retry instead of deduplicating it", async () => {
    let calls = 0;
    receiver.on('*', () => {
      if (++calls === 1) throw new Error('CRM timed out');
    });
    const app = expressApp(receiver);
    const delivery = signedDelivery({ secret: SECRET, event: 'contact.updated' });
    const first = await post(app, delivery).expect(500);
    expect(first.body.error.code).toBe('HANDLER_FAILED');
    expect(await receiver.store.get(delivery.deliveryId)).toMatchObject({ status: 'failed', attempts: 1 });

    // The service retries with the same delivery id and a fresh signature.
    const retry = signedDelivery({ secret: SECRET, envelope: delivery.body, deliveryId: delivery.deliveryId });
    const second = await post(app, retry).expect(200);
    expect(second.body).toMatchObject({ duplicate: true, processed: true });
    expect(calls).toBe(2);

    const third = await post(app, retry).expect(200);
    expect(third.body).toMatchObject({ duplicate: true, processed: true });
    expect(calls).toBe(2);
    expect(await receiver.store.get(delivery.deliveryId)).toMatchObject({ status: 'done', attempts: 2 });
  });
});
