import request from 'supertest';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createDemoApp } from '../../examples/demo-receiver.js';
import { signedDelivery } from '../../src/testing/index.js';
import { tempDir } from '../store/temp-dir.js';
import { SECRET } from './harness.js';

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

it('the README quick start (the demo app) verifies, stores and prints a delivery, with express.json() mounted after it', async () => {
  const lines: string[] = [];
  const { app, receiver } = createDemoApp({
    secret: SECRET,
    dbPath: dir.path('demo.db'),
    print: (line) => lines.push(line),
  });
  await receiver.start();
  const delivery = signedDelivery({ secret: SECRET, event: 'ticket.created' });
  await request(app).post('/webhooks').set(delivery.headers).send(delivery.body).expect(200);
  await request(app).post('/webhooks').set(delivery.headers).send(delivery.body.replace('high', 'low')).expect(401);
  await receiver.idle();
  await receiver.close();
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`ticket\\.created\\s+${delivery.deliveryId}  attempt 1  tkt_`));
});
