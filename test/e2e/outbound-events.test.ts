import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/seed.js';
import { createReceiver, type Receiver } from '../../src/receiver/index.js';
import { startE2e, type E2e } from './harness.js';

// The outbound routes' events, delivered signed by the emulator to a real createReceiver: a handler only runs
// for data that passes the receiver's own event schema, so every handled event proves its shape.
let t: E2e;
let receiver: Receiver;
let front: Server;
let dir: string;
const handled: { event: string; data: Record<string, unknown> }[] = [];
const statuses: number[] = [];

beforeAll(async () => {
  t = await startE2e();
  dir = mkdtempSync(join(tmpdir(), 'convo-kit-outbound-events-'));
  let secret = '';
  receiver = createReceiver({
    secrets: async () => secret,
    dbPath: join(dir, 'receiver.db'),
    logger: pino({ level: 'silent' }),
    pollIntervalMs: 20,
  });
  for (const event of [
    'message.sent',
    'message.delivery_failed',
    'conversation.created',
    'template.status_update',
  ] as const)
    receiver.on(event, async ({ data }) => {
      handled.push({ event, data: data as Record<string, unknown> });
    });
  await receiver.start();
  front = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const answer = await receiver.handle({
        headers: req.headers as Record<string, string>,
        rawBody: Buffer.concat(chunks),
      });
      statuses.push(answer.status);
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const res = await fetch(`${t.origin}/v1/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.emulator.adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      url: `http://127.0.0.1:${(front.address() as AddressInfo).port}/hooks`,
      events: ['message.sent', 'message.delivery_failed', 'conversation.created', 'template.status_update'],
    }),
  });
  secret = ((await res.json()) as { secret: string }).secret;
});

afterAll(async () => {
  front.closeAllConnections();
  await new Promise<void>((resolve) => front.close(() => resolve()));
  await t.close();
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

const of = (event: string, match: (data: Record<string, unknown>) => boolean = () => true) =>
  handled.filter((h) => h.event === event && match(h.data)).map((h) => h.data);

it('every event the outbound routes emit passes the receiver’s schemas and reaches its handlers', async () => {
  const vars = { '1': 'A-5', '2': 'Monday' };
  // A template send to a new number: conversation.created (origin journey), then message.sent (source api).
  const api = await t.client.templates.send({ id: SEED_IDS.templates.approved, to: '14155559901', variables: vars });
  // A journey step: message.sent source journey.
  const journey = await t.client.journeys.create({
    name: 'Events',
    trigger_name: 'events.check',
    steps: [{ template_id: SEED_IDS.templates.approved, delay_seconds: 0 }],
  });
  await t.client.journeys.setStatus({ id: journey.id, status: 'active' });
  await t.client.trigger.enroll({ trigger_name: 'events.check', phone: '+14155559902', metadata: vars });
  // Five throttled sends (0002): five message.delivery_failed naming the template, then the auto-pause.
  for (let i = 0; i < 5; i++)
    await t.client.templates.send({
      id: SEED_IDS.templates.approvedMarketing,
      to: `1415555${i}0002`,
      variables: { '1': 'x' },
    });
  // The provider's review of a new template.
  const created = await t.client.templates.create({ name: 'events_review', category: 'UTILITY', body: 'Your code' });
  await t.control(`templates/${created.id}/review`, { status: 'approved', quality: 'high' });

  await t.control('clock', { advance_seconds: 1 });
  await t.emulator.dispatcher.idle();
  await receiver.idle();

  expect(statuses.every((s) => s === 200)).toBe(true);
  expect(of('conversation.created', (d) => d.id === api.conversation_id)).toEqual([
    expect.objectContaining({ origin: 'journey', channel: 'phone' }),
  ]);
  expect(of('message.sent', (d) => d.id === api.id)).toEqual([expect.objectContaining({ source: 'api' })]);
  expect(of('message.sent', (d) => d.source === 'journey').length).toBeGreaterThanOrEqual(1);
  // A send turns failed on the emulator's progress timer, which can fire after the dispatcher went idle: wait for it.
  const throttled = () => of('message.delivery_failed', (d) => d.template_name === 'weekend_offer');
  await expect
    .poll(
      async () => {
        await t.emulator.dispatcher.idle();
        await receiver.idle();
        return throttled().length;
      },
      { timeout: 15_000 },
    )
    .toBe(5);
  const failed = throttled();
  expect(failed[0]).toMatchObject({ error_code: '131049', throttled: true });
  expect(of('template.status_update', (d) => d.template_id === SEED_IDS.templates.approvedMarketing)).toEqual([
    expect.objectContaining({ status: 'paused', reason: expect.stringContaining('131049') }),
  ]);
  expect(of('template.status_update', (d) => d.template_id === created.id)).toEqual([
    expect.objectContaining({ status: 'approved', quality: 'high', template_name: 'events_review' }),
  ]);
});
