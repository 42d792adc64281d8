import request from 'supertest';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createDemoApp } from '../../examples/demo-receiver.js';
import { signedDelivery } from '../../src/testing/index.js';
import { tempDir } from '../store/temp-dir.js';
import { SECRET } from './harness.js';
import { freePort, REPO_ROOT, run } from '../support/run-command.js';

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

it("the demo's send names the URL and the reason when nothing answers there, and exits 1", async () => {
  const url = `http://127.0.0.1:${await freePort()}/webhooks`;
  const result = await run(
    process.execPath,
    ['--import', 'tsx', 'examples/demo-receiver.ts', 'send', 'ticket.created', url],
    {
      cwd: REPO_ROOT,
      env: { CONVO_KIT_WEBHOOK_SECRET: SECRET },
      timeoutMs: 60_000,
    },
  );
  expect(result.code).toBe(1);
  expect(result.stderr.trim()).toMatch(
    new RegExp(`^POST ${url} got no answer \\(connect ECONNREFUSED [^)]+\\): is the demo receiver running there\\?$`),
  );
}, 90_000);
