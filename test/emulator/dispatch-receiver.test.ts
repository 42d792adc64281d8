import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, expect, it } from 'vitest';
import { WebhookEndpointCreated } from '../../src/api/schemas/webhook-endpoint.js';
import { createReceiver, type ReceiverResponse } from '../../src/receiver/index.js';
import { as, cleanup, emulator, tempDir } from './platform-harness.js';

afterEach(cleanup);

it('a createReceiver receiver gets the emulator’s signed deliveries, the retry after a 500, and deduplicates it', async () => {
  const e = await emulator();
  let secret = '';
  const receiver = createReceiver({
    secrets: async () => secret,
    dbPath: join(tempDir(), 'receiver.db'),
    logger: pino({ level: 'silent' }),
    pollIntervalMs: 50,
  });
  const handled: string[] = [];
  receiver.on('message.received', async ({ data }) => {
    handled.push(data.id);
  });
  await receiver.start();

  // In front of the receiver: the first delivery is stored by the receiver but answered 500 anyway
  // (a proxy failing after the receiver acked), so the emulator retries a delivery the receiver already has.
  const answers: ReceiverResponse[] = [];
  const front = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const answer = await receiver.handle({
        headers: req.headers as Record<string, string>,
        rawBody: Buffer.concat(chunks),
      });
      answers.push(answer);
      res
        .writeHead(answers.length === 1 ? 500 : answer.status, { 'content-type': 'application/json' })
        .end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  try {
    const registered = await as(e)
      .post('/v1/webhooks')
      .send({ url: `http://127.0.0.1:${(front.address() as AddressInfo).port}/hooks`, events: ['message.*'] });
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
    front.closeAllConnections();
    await new Promise<void>((resolve) => front.close(() => resolve()));
    await receiver.close();
  }
});
