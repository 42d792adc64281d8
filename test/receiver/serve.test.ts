import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serve, type Served } from '../../src/receiver/index.js';
import { signedDelivery } from '../../src/testing/index.js';
import { tempDir } from '../store/temp-dir.js';
import { SECRET, testReceiver } from './harness.js';

let dir: ReturnType<typeof tempDir>;
const open: Served[] = [];
beforeEach(() => {
  dir = tempDir();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  dir.remove();
});

const deliver = (url: string) => {
  const d = signedDelivery({ secret: SECRET, event: 'ticket.created' });
  return fetch(url, { method: 'POST', headers: d.headers, body: d.body });
};

describe('serve(receiver, options)', () => {
  it('serves the webhook, /healthz, /readyz, /metrics and the inspector on one port, and the app’s routes for the rest', async () => {
    const receiver = testReceiver(dir.path('serve.db'));
    const handled: string[] = [];
    receiver.on('ticket.created', ({ deliveryId }) => void handled.push(deliveryId));
    const served = await serve(receiver, {
      port: 0,
      webhookPath: '/hooks/convo',
      inspector: {},
      metrics: (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('# the metrics\n'),
      routes: (req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(`app: ${req.url}`),
    });
    open.push(served);
    expect(served.webhookUrl).toBe(`${served.url}/hooks/convo`);
    // Started by serve: the delivery is handled without a start() of ours.
    expect((await deliver(served.webhookUrl)).status).toBe(200);
    await receiver.idle();
    expect(handled).toHaveLength(1);
    expect((await fetch(`${served.url}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${served.url}/readyz`)).json()).toMatchObject({ worker: { running: true } });
    expect(await (await fetch(`${served.url}/metrics`)).text()).toBe('# the metrics\n');
    expect((await fetch(`${served.url}/_inspector/api/deliveries`)).status).toBe(200);
    expect(await (await fetch(`${served.url}/webhooks`)).text()).toBe('app: /webhooks');
    expect(await (await fetch(`${served.url}/api/things?x=1`)).text()).toBe('app: /api/things?x=1');
  });

  it('answers 404 in the receiver’s envelope where neither metrics nor routes are given', async () => {
    const served = await serve(testReceiver(dir.path('bare.db')), { port: 0 });
    open.push(served);
    for (const path of ['/metrics', '/_inspector', '/anything']) {
      const res = await fetch(`${served.url}${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.json(), path).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
  });

  it('close() refuses deliveries and readiness first, then closes the server and runs onClose once', async () => {
    const receiver = testReceiver(dir.path('close.db'));
    let release: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (release = resolve));
    let started: () => void = () => undefined;
    const handlerStarted = new Promise<void>((resolve) => (started = resolve));
    receiver.on('ticket.created', async () => {
      started();
      await running;
    });
    let onCloseRuns = 0;
    const served = await serve(receiver, { port: 0, onClose: () => void (onCloseRuns += 1) });
    expect((await deliver(served.webhookUrl)).status).toBe(200);
    await handlerStarted;
    const closing = served.close();
    // While the handler still runs, the port answers: deliveries get 503 with Retry-After, /readyz 503.
    const refused = await deliver(served.webhookUrl);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).not.toBeNull();
    expect((await fetch(`${served.url}/readyz`)).status).toBe(503);
    release();
    await closing;
    expect(served.close()).toBe(closing);
    expect(onCloseRuns).toBe(1);
    await expect(fetch(`${served.url}/healthz`)).rejects.toThrow();
  });

  it('rejects with the listen error on a port in use, and stops the receiver it started', async () => {
    const first = await serve(testReceiver(dir.path('first.db')), { port: 0 });
    open.push(first);
    const receiver = testReceiver(dir.path('second.db'));
    const port = Number(new URL(first.url).port);
    await expect(serve(receiver, { port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
    expect(await receiver.health()).toMatchObject({ worker: { running: false, closing: true } });
  });
});
