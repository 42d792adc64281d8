import { afterEach, expect, it } from 'vitest';
import { WebhookEndpointCreated } from '../../src/api/schemas/webhook-endpoint.js';
import type { ReceiverResponse } from '../../src/receiver/index.js';
import { as, cleanup, emulator } from './platform-harness.js';
import { receiverBehindPort } from './receiver-harness.js';

afterEach(cleanup);

it('a createReceiver receiver gets the emulator’s signed deliveries, the retry after a 500, and deduplicates it', async () => {
  const e = await emulator();
  let secret = '';
  const handled: string[] = [];
  // In front of the receiver: the first delivery is stored by the receiver but answered 500 anyway
  // (a proxy failing after the receiver acked), so the emulator retries a delivery the receiver already has.
  const answers: ReceiverResponse[] = [];
  const { url, receiver, close } = await receiverBehindPort({
    secrets: async () => secret,
    pollIntervalMs: 50,
    handlers: (r) =>
      r.on('message.received', async ({ data }) => {
        handled.push(data.id);
      }),
    seen: ({ answer }) => answers.push(answer),
    status: (answer, arrival) => (arrival === 1 ? 500 : answer.status),
  });
  try {
    const registered = await as(e)
      .post('/v1/webhooks')
      .send({ url, events: ['message.*'] });
    secret = WebhookEndpointCreated.parse(registered.body).secret;
    const sent = await as(e)
      .post('/_emulator/inbound')
      .send({ channel: 'phone', from: { handle: '+14155556666' }, content: 'Order status?' });
    expect(sent.status).toBe(201);
    await e.dispatcher.idle();
    e.clock.advance(60);
    await e.dispatcher.idle();
    await receiver.idle();

    expect(answers.map((a) => [a.status, 'duplicate' in a.body ? a.body.duplicate : a.body.error.code])).toEqual([
      [200, false],
      [200, true],
    ]);
    expect(handled).toEqual([sent.body.message.id]);
  } finally {
    await close();
  }
});
