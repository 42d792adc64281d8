import { SpanKind } from '@opentelemetry/api';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import type { Receiver } from '../../src/receiver/index.js';
import { SEED_IDS } from '../../src/emulator/seed.js';
import { signedDelivery } from '../../src/testing/index.js';
import { tempDir } from '../store/temp-dir.js';
import { startE2e, type E2e } from '../e2e/harness.js';
import { SECRET, testReceiver } from '../receiver/harness.js';
import { metricValue, registerOtelSdk, spansNamed } from '../support/otel-sdk.js';
import { emulatorServer, OPEN_CONVERSATION, type EmulatorServer } from './emulator-server.js';

// Before the emulator, its client and the receiver: each takes its meter when it is created.
const sdk = registerOtelSdk();

const dir = tempDir();
let emulator: EmulatorServer | undefined;
let e2e: E2e | undefined;
const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await emulator?.close();
  await e2e?.close();
  emulator = e2e = undefined;
});

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

it('a delivery whose handler steps and sends through ctx.client is one trace, and the emulator continues it from traceparent', async () => {
  emulator = await emulatorServer();
  const receiver: Receiver = testReceiver(dir.path('trace.db'), { client: emulator.client });
  closers.push(() => receiver.close());
  receiver.on('ticket.created', async ({ step, client, eventId }) => {
    await step('lookup', () => 'found');
    await client.messages.send({ conversation_id: OPEN_CONVERSATION, content: `traced ${eventId}` });
  });
  await receiver.start();
  const server: Server = createServer(receiver.listener);
  closers.push(() => void server.close());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const before = await sdk.collect();
  const d = signedDelivery({ secret: SECRET, event: 'ticket.created' });
  const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
    method: 'POST',
    headers: d.headers,
    body: d.body,
  });
  expect(res.status).toBe(200);
  await until('the handler to finish', async () => (await receiver.store.get(d.deliveryId))?.status === 'done');

  const [receive] = spansNamed(sdk.spans, 'receive ticket.created');
  const [process] = spansNamed(sdk.spans, 'process ticket.created');
  const [lookup] = spansNamed(sdk.spans, 'step lookup');
  const [sendStep] = spansNamed(sdk.spans, 'step messages.send:1');
  const sends = spansNamed(sdk.spans, 'POST /v1/messages');
  const call = sends.find((s) => s.kind === SpanKind.CLIENT)!;
  const served = sends.find((s) => s.kind === SpanKind.SERVER)!;
  const traceId = receive!.spanContext().traceId;
  for (const span of [process, lookup, sendStep, call, served]) expect(span!.spanContext().traceId).toBe(traceId);
  const parentOf = (span: typeof receive) => span!.parentSpanContext?.spanId;
  expect(parentOf(process)).toBe(receive!.spanContext().spanId);
  expect(parentOf(lookup)).toBe(process!.spanContext().spanId);
  expect(parentOf(sendStep)).toBe(process!.spanContext().spanId);
  expect(parentOf(call)).toBe(sendStep!.spanContext().spanId);
  // The emulator read the client's traceparent: its server span is the client span's child.
  expect(parentOf(served)).toBe(call.spanContext().spanId);
  expect(served.parentSpanContext?.isRemote).toBe(true);
  expect(call.attributes).toMatchObject({
    'http.request.method': 'POST',
    'url.template': '/v1/messages',
    'http.response.status_code': 201,
    'convo_kit.client.endpoint': 'messages.send',
  });
  expect(served.attributes).toMatchObject({ 'http.route': '/v1/messages', 'http.response.status_code': 201 });
  expect(lookup!.attributes).toMatchObject({ 'convo_kit.step.name': 'lookup', 'convo_kit.step.outcome': 'done' });

  const after = await sdk.collect();
  const sent = { 'url.template': '/v1/messages', 'http.request.method': 'POST', 'http.response.status_code': 201 };
  expect(
    metricValue(after, 'convo_kit.client.requests', sent) - metricValue(before, 'convo_kit.client.requests', sent),
  ).toBe(1);
});

it("counts the emulator's webhook attempts by endpoint and outcome", async () => {
  e2e = await startE2e({ retryDelaysSeconds: [60] });
  const good = await e2e.loopbackWebhook(['message.received']);
  const failing = createServer((req, res) => {
    req.resume();
    res.writeHead(500).end();
  });
  closers.push(() => void failing.close());
  await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
  const bad = await e2e.api('POST', '/v1/webhooks', {
    url: `http://127.0.0.1:${(failing.address() as AddressInfo).port}/hooks`,
    events: ['message.received'],
  });
  expect(bad.status).toBe(201);
  const badId = (bad.body as { id: string }).id;
  const count = async (endpoint: string, outcome: string) =>
    metricValue(await sdk.collect(), 'convo_kit.emulator.webhook_deliveries', { endpoint, outcome });

  await e2e.control('inbound', {
    channel: 'phone',
    integration_id: SEED_IDS.phoneSupport,
    from: { handle: '+14155550199' },
    content: 'hello',
  });
  await until(
    'both endpoints to be tried',
    async () => (await count(badId, 'retrying')) === 1 && good.received() === 1,
  );
  await until('the delivered attempt to be counted', async () => (await count(good.id, 'delivered')) === 1);
  // The last retry fails for good.
  await e2e.control('clock', { advance_seconds: 61 });
  await until('the last retry', async () => (await count(badId, 'failed')) === 1);
  expect(await count(good.id, 'retrying')).toBe(0);
});
