import { afterAll, expect, it } from 'vitest';
import type { Receiver } from '../../src/receiver/index.js';
import { signedDelivery } from '../../src/testing/index.js';
import { tempDir } from '../store/temp-dir.js';
import { metricValue, registerOtelSdk, spansNamed } from '../support/otel-sdk.js';
import { SECRET, testReceiver } from './harness.js';

// @opentelemetry/api is installed here, and no SDK is registered yet: a receiver made now skips telemetry
// altogether (its ack path pays not even the API's no-ops; docs/operations.md), one made after counts.
const dir = tempDir();
const open: Receiver[] = [];
afterAll(async () => {
  await Promise.all(open.map((r) => r.close()));
  dir.remove();
});

function make(name: string): Receiver {
  const receiver = testReceiver(dir.path(`${name}.db`));
  receiver.on('*', () => undefined);
  open.push(receiver);
  return receiver;
}

it('a receiver made before any SDK records nothing; one made after the SDK records its deliveries', async () => {
  const before = make('before');
  const sdk = registerOtelSdk();
  const after = make('after');
  for (const receiver of [before, after]) {
    const delivery = signedDelivery({ secret: SECRET, event: 'message.received' });
    expect((await receiver.handle({ headers: delivery.headers, rawBody: delivery.body })).status).toBe(200);
  }
  const received = spansNamed(sdk.spans, 'receive');
  expect(received).toHaveLength(1);
  const deliveries = metricValue(await sdk.collect(), 'convo_kit.receiver.deliveries', { outcome: 'acked' });
  expect(deliveries).toBe(1);
});
