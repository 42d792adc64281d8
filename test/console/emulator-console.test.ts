import { createServer, type Server } from 'node:http';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { HAS_CHROMIUM, launchBrowser, screenshot } from '../support/browser.js';

let emulator: Emulator;
let server: { url: string; close(): Promise<void> };
beforeAll(async () => {
  emulator = await createEmulator({});
  server = await emulator.listen(0);
});
afterAll(async () => {
  await server.close();
  await emulator.close();
});

const admin = () => `Bearer ${emulator.adminKey}`;

describe('the emulator controls index and resend', () => {
  it('GET /_emulator lists every control with its body schema, and the emulator time', async () => {
    const res = await request(emulator.app).get('/_emulator').expect(200);
    const inbound = res.body.controls.find((c: { path: string }) => c.path === '/_emulator/inbound');
    expect(inbound.body.required).toEqual(expect.arrayContaining(['channel', 'from', 'content']));
    expect(res.body.controls.map((c: { path: string }) => c.path)).toEqual(
      expect.arrayContaining([
        '/_emulator/clock',
        '/_emulator/reset',
        '/_emulator/webhooks/deliveries/:delivery_id/resend',
      ]),
    );
    expect(Date.parse(res.body.now)).not.toBeNaN();
  });

  it('resends a finished delivery with the same id and bytes, and refuses one it no longer holds', async () => {
    const received: { id: string; body: string }[] = [];
    const receiver: Server = createServer((req, res) => {
      let body = '';
      req
        .on('data', (chunk) => (body += chunk))
        .on('end', () => {
          received.push({ id: String(req.headers['x-service-delivery']), body });
          res.writeHead(200).end('{}');
        });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = receiver.address() as { port: number };
      const hook = await request(emulator.app)
        .post('/v1/webhooks')
        .set('authorization', admin())
        .send({ url: `http://127.0.0.1:${port}/hook`, events: ['conversation.created'] })
        .expect(201);
      await request(emulator.app)
        .post('/_emulator/inbound')
        .set('authorization', admin())
        .send({ channel: 'phone', from: { handle: '+14155550777' }, content: 'hello' })
        .expect(201);
      await emulator.dispatcher.idle();
      expect(received).toHaveLength(1);
      const [first] = received;

      await request(emulator.app)
        .post(`/_emulator/webhooks/deliveries/${first!.id}/resend`)
        .set('authorization', admin())
        .expect(200, { resent: true, delivery_id: first!.id });
      await emulator.dispatcher.idle();
      expect(received).toHaveLength(2);
      expect(received[1]).toEqual(first);
      const log = await request(emulator.app)
        .get(`/v1/webhooks/${hook.body.id}/deliveries`)
        .set('authorization', admin())
        .expect(200);
      expect(log.body.data.filter((a: { delivery_id: string }) => a.delivery_id === first!.id)).toHaveLength(2);

      const gone = await request(emulator.app)
        .post('/_emulator/webhooks/deliveries/dlv_never_sent/resend')
        .set('authorization', admin())
        .expect(404);
      expect(gone.body.error.code).toBe('NOT_FOUND');
      await request(emulator.app).post(`/_emulator/webhooks/deliveries/${first!.id}/resend`).expect(401);
      await request(emulator.app)
        .post('/_emulator/webhooks/deliveries/..%2Fx/resend')
        .set('authorization', admin())
        .expect(400);
    } finally {
      receiver.close();
    }
  });

  it('serves the console page to this machine only', async () => {
    const page = await request(emulator.app).get('/_emulator/console').expect(200);
    expect(page.text).toContain('convo-kit emulator console');
    expect(page.text).not.toContain(emulator.adminKey);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    await request(emulator.app).get('/_emulator/console').set('host', 'rebound.example').expect(403);
  });
});

describe.skipIf(!HAS_CHROMIUM)('the emulator console in Chromium', () => {
  it('asks for the admin key, then writes in as a customer and the conversation appears', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const failures: string[] = [];
      page.on('pageerror', (error) => failures.push(error.message));
      await page.goto(`${server.url}/_emulator/console`);
      await page.fill('#key', 'svc_live_wrongwrongwrongwrongwrongwrong12');
      await page.click('#key-form button');
      await expect.poll(() => page.locator('#key-error').textContent()).toContain('That key was refused');

      await page.goto(`${server.url}/_emulator/console#key=${emulator.adminKey}`);
      // The key leaves the address bar at once.
      await expect.poll(() => page.url()).not.toContain(emulator.adminKey);
      await page.locator('#console').waitFor({ state: 'visible' });
      await page.selectOption('#channel', 'photo_social');
      await page.fill('#handle', '@grace.h');
      await page.fill('#name', 'Grace Hopper');
      await page.fill('#content', 'Where is my parcel?');
      await page.click('#inbound button.primary');
      const row = page.locator('#panel-conversations tbody tr', { hasText: 'Grace Hopper' });
      await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
      expect(await row.textContent()).toContain('Where is my parcel?');
      expect(await row.textContent()).toContain('photo_social');
      await screenshot(page, 'emulator-console-wrote-in');
      expect(failures).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
