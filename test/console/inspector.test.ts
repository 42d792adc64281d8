import { rmSync } from 'node:fs';
import type { Server } from 'node:http';
import express from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, launchBrowser, NO_CHROMIUM_MESSAGE, screenshot } from '../support/browser.js';
import { escapeHtml } from '../../src/console/html.js';
import { deliver, setup } from './inspector-harness.js';

describe('the delivery inspector over HTTP', () => {
  let s: ReturnType<typeof setup>;
  let deadId: string;
  beforeAll(async () => {
    s = setup();
    await s.receiver.start();
    deadId = await deliver(s.app, s.receiver, { data: { metadata: { api_token: 'tok_very_secret' } } });
  });
  afterAll(async () => {
    await s.receiver.close();
    rmSync(s.dir, { recursive: true, force: true });
  });

  it('lists deliveries by status and event, newest first', async () => {
    const dead = await request(s.app).get('/_inspector/api/deliveries?status=dead&event=ticket.*').expect(200);
    expect(dead.body.data.map((d: { id: string }) => d.id)).toEqual([deadId]);
    expect(dead.body.data[0]).toMatchObject({
      status: 'dead',
      event: 'ticket.created',
      last_error: expect.stringContaining('the CRM was down'),
    });
    const none = await request(s.app).get('/_inspector/api/deliveries?status=done').expect(200);
    expect(none.body.data).toEqual([]);
    const recent = await request(s.app).get('/_inspector/api/deliveries?within=15').expect(200);
    expect(recent.body.data).toHaveLength(1);
  });

  it('shows one delivery with its signature and secret-looking fields redacted, its attempts and its steps', async () => {
    const res = await request(s.app).get(`/_inspector/api/deliveries/${deadId}`).expect(200);
    expect(res.body.headers['X-Service-Signature']).toBe('[redacted]');
    expect(res.body.dead_letter).toBe(true);
    expect(JSON.stringify(res.body)).not.toContain('tok_very_secret');
    expect(res.body.body.json.data.metadata.api_token).toBe('[redacted]');
    expect(res.body.attempts).toEqual([expect.objectContaining({ attempt: 1, outcome: 'dead' })]);
    expect(res.body.steps).toEqual([
      {
        name: 'crm-lookup',
        attempt: 1,
        outcome: 'done',
        started_at: expect.stringMatching(/Z$/),
        finished_at: expect.stringMatching(/Z$/),
        result_bytes: JSON.stringify({ ticket: res.body.body.json.data.id }).length,
        error: null,
      },
    ]);
  });

  it('names each bad filter, and answers 404 for an unknown delivery', async () => {
    const status = await request(s.app).get('/_inspector/api/deliveries?status=lost').expect(400);
    expect(status.body.error.message).toMatch(/^status: /);
    const event = await request(s.app).get('/_inspector/api/deliveries?event=billing.*').expect(400);
    expect(event.body.error.message).toMatch(/^event: /);
    const extra = await request(s.app).get('/_inspector/api/deliveries?order=asc').expect(400);
    expect(extra.body.error.code).toBe('VALIDATION_FAILED');
    await request(s.app).get('/_inspector/api/deliveries/dlv_nope').expect(404);
  });

  it('takes limit and within in plain decimal digits only and before as an ISO time, naming the filter otherwise', async () => {
    for (const [name, bad] of [
      ['limit', '1e1'],
      ['limit', '0x10'],
      ['limit', '%205'],
      ['limit', ''],
      ['within', '1e3'],
      ['within', '015'],
    ]) {
      const res = await request(s.app).get(`/_inspector/api/deliveries?${name}=${bad}`);
      expect([name, bad, res.status, res.body.error?.code]).toEqual([name, bad, 400, 'VALIDATION_FAILED']);
      expect(res.body.error.message).toMatch(new RegExp(`^${name}: expected an integer`));
    }
    for (const bad of ['yesterday', '2026-11-26', '1764125000']) {
      const res = await request(s.app).get(`/_inspector/api/deliveries?before=${bad}`).expect(400);
      expect([bad, res.body.error.message]).toEqual([bad, expect.stringMatching(/^before: /)]);
    }
    // Received before a time: none before the first delivery, the delivery itself a minute after it.
    const received = Date.parse(
      (await request(s.app).get('/_inspector/api/deliveries').expect(200)).body.data[0].received_at,
    );
    const before = (ms: number) =>
      request(s.app).get(`/_inspector/api/deliveries?before=${new Date(ms).toISOString()}`);
    expect((await before(received).expect(200)).body.data).toHaveLength(0);
    expect((await before(received + 60_000).expect(200)).body.data).toHaveLength(1);
    const ok = await request(s.app).get('/_inspector/api/deliveries?limit=1&within=15').expect(200);
    expect(ok.body.data).toHaveLength(1);
    expect((await request(s.app).get('/_inspector/api/deliveries').expect(200)).body.data).toHaveLength(1);
  });

  it('answers a page address with a bad filter as the JSON side does: 400, the same message, no list', async () => {
    for (const query of ['status=bogus', 'limit=abc', 'within=1e3', 'event=billing.*', 'order=asc', 'cursor=bogus']) {
      const json = await request(s.app).get(`/_inspector/api/deliveries?${query}`).expect(400);
      const page = await request(s.app).get(`/_inspector/?${query}`);
      expect([query, page.status]).toEqual([query, 400]);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.headers['content-security-policy']).toContain("default-src 'none'");
      const shown = /<p id="query-error" class="error">([^<]*)<\/p>/.exec(page.text)?.[1];
      expect(shown).toBe(escapeHtml(json.body.error.message));
      expect(page.text).not.toContain(deadId);
      expect(page.text).toContain('<a href="/_inspector/">Show every delivery</a>');
    }
    // A good filter still gets the page, with the list in it.
    expect((await request(s.app).get('/_inspector/?status=dead&limit=10').expect(200)).text).toContain(deadId);
  });

  it('replays only JSON from the page itself, at most 100 ids at once', async () => {
    await request(s.app)
      .post('/_inspector/api/replay')
      .set('content-type', 'text/plain')
      .send(JSON.stringify({ ids: [deadId] }))
      .expect(415);
    await request(s.app)
      .post('/_inspector/api/replay')
      .set('origin', 'http://evil.example')
      .send({ ids: [deadId] })
      .expect(403);
    await request(s.app).post('/_inspector/api/replay').send({ ids: [] }).expect(400);
    await request(s.app)
      .post('/_inspector/api/replay')
      .send({ ids: Array.from({ length: 101 }, (_, i) => `dlv_${i}`) })
      .expect(400);
    // Still dead: none of the refused requests ran the handler.
    const row = await request(s.app).get(`/_inspector/api/deliveries/${deadId}`).expect(200);
    expect(row.body.status).toBe('dead');
    expect(s.state.handled).toEqual([]);
  });

  it('answers only this machine: a DNS name pointed at 127.0.0.1 is refused', async () => {
    const res = await request(s.app).get('/_inspector/').set('host', 'attacker.example:3000').expect(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
  });

  it('refuses a request a reverse proxy on this machine passed on, whatever Host it names', async () => {
    for (const [name, value] of [
      ['x-forwarded-for', '203.0.113.7'],
      ['x-real-ip', '203.0.113.7'],
      ['forwarded', 'for=203.0.113.7'],
      ['x-forwarded-host', 'crm.example'],
      ['via', '1.1 caddy'],
    ]) {
      const res = await request(s.app)
        .get('/_inspector/api/deliveries')
        .set('host', '127.0.0.1:3000')
        .set(name!, value!);
      expect([name, res.status]).toEqual([name, 403]);
    }
    await request(s.app).get('/_inspector/api/deliveries').set('host', '127.0.0.1:3000').expect(200);
  });

  it('with a token, answers whoever presents it and nobody else', async () => {
    const app = express();
    app.use('/inspect', s.receiver.inspector({ token: 'a-long-inspector-token' }));
    await request(app).get('/inspect/api/deliveries').set('host', 'ops.example').expect(403);
    await request(app).get('/inspect/api/deliveries').set('authorization', 'Bearer wrong-token-but-long').expect(403);
    const ok = await request(app)
      .get('/inspect/api/deliveries')
      .set('authorization', 'Bearer a-long-inspector-token')
      .expect(200);
    expect(ok.body.data).toHaveLength(1);
    // The page's address carries the token, beside its filters: the token is no filter. The page keeps it in
    // a cookie for its own requests (its address then drops it), and never writes it into the page.
    const page = await request(app)
      .get('/inspect/?token=a-long-inspector-token&status=dead')
      .set('host', 'ops.example');
    expect(page.status).toBe(200);
    expect(page.text).toContain('dead letter');
    expect(page.text).not.toContain('a-long-inspector-token');
    const cookie = 'convo_kit_inspector_80=a-long-inspector-token';
    expect(page.headers['set-cookie']).toEqual([`${cookie}; Path=/inspect; HttpOnly; SameSite=Strict`]);
    await request(app).get('/inspect/api/deliveries').set('host', 'ops.example').set('cookie', cookie).expect(200);
    await request(app)
      .get('/inspect/api/deliveries')
      .set('host', 'ops.example')
      .set('cookie', 'convo_kit_inspector_80=wrong-token-but-long')
      .expect(403);
    // Browsers do not keep cookies apart by port: the port names the cookie, so a second inspector on another
    // port of this host, with its own token, neither overwrites this one's cookie nor is let in by it.
    const other = express();
    other.use('/inspect', s.receiver.inspector({ token: 'another-long-inspector-token' }));
    const otherPage = await request(other)
      .get('/inspect/?token=another-long-inspector-token')
      .set('host', 'ops.example:4000');
    expect(otherPage.headers['set-cookie']).toEqual([
      'convo_kit_inspector_4000=another-long-inspector-token; Path=/inspect; HttpOnly; SameSite=Strict',
    ]);
    const both = `${cookie}; convo_kit_inspector_4000=another-long-inspector-token`;
    await request(app).get('/inspect/api/deliveries').set('host', 'ops.example').set('cookie', both).expect(200);
    await request(other).get('/inspect/api/deliveries').set('host', 'ops.example:4000').set('cookie', both).expect(200);
    await request(other)
      .get('/inspect/api/deliveries')
      .set('host', 'ops.example:4000')
      .set('cookie', cookie)
      .expect(403);
    // A Bearer token is the caller's to keep: no cookie.
    const bearerPage = await request(app).get('/inspect/').set('authorization', 'Bearer a-long-inspector-token');
    expect([bearerPage.status, bearerPage.headers['set-cookie']]).toEqual([200, undefined]);
    // A bad filter's page keeps the token too, and links on without it.
    const refused = await request(app)
      .get('/inspect/?token=a-long-inspector-token&status=lost')
      .set('host', 'ops.example');
    expect(refused.status).toBe(400);
    expect(refused.headers['set-cookie']).toEqual([`${cookie}; Path=/inspect; HttpOnly; SameSite=Strict`]);
    expect(refused.text).toContain('<a href="/inspect/">Show every delivery</a>');
    expect(refused.text).not.toContain('a-long-inspector-token');
    expect(() => s.receiver.inspector({ token: 'short' })).toThrow(/at least 16 characters/);
  });

  it("refuses another site's page with or without a token: its Origin, or Sec-Fetch-Site: cross-site", async () => {
    const app = express();
    app.use('/inspect', s.receiver.inspector({ token: 'a-long-inspector-token' }));
    const bearer = 'Bearer a-long-inspector-token';
    for (const [name, value] of [
      ['origin', 'http://evil.example'],
      ['origin', 'null'],
      ['sec-fetch-site', 'cross-site'],
    ] as const) {
      const tokened = await request(app)
        .get('/inspect/api/deliveries')
        .set('host', 'ops.example')
        .set('authorization', bearer)
        .set(name, value);
      expect([name, value, tokened.status, tokened.body.error?.code]).toEqual([name, value, 403, 'FORBIDDEN']);
      expect(tokened.body.error.message).toContain("another site's page");
      const local = await request(s.app).get('/_inspector/api/deliveries').set(name, value);
      expect([name, value, local.status]).toEqual([name, value, 403]);
    }
    // The inspector's own page (same origin, or opened from the address bar) is answered in both modes.
    for (const [name, value] of [
      ['origin', 'http://ops.example'],
      ['sec-fetch-site', 'same-origin'],
      ['sec-fetch-site', 'none'],
    ] as const) {
      await request(app)
        .get('/inspect/api/deliveries')
        .set('host', 'ops.example')
        .set('authorization', bearer)
        .set(name, value)
        .expect(200);
    }
    await request(s.app).get('/_inspector/api/deliveries').set('sec-fetch-site', 'same-origin').expect(200);
  });

  it('links its own requests under the mount path, with or without a slash after it', async () => {
    const base = (text: string) => /"base":"([^"]*)"/.exec(text)?.[1];
    expect(base((await request(s.app).get('/_inspector').expect(200)).text)).toBe('/_inspector');
    expect(base((await request(s.app).get('/_inspector/').expect(200)).text)).toBe('/_inspector');
    expect(base((await request(s.app).get('/_inspector/?status=dead').expect(200)).text)).toBe('/_inspector');
  });

  it('serves its page with the first deliveries already in it, under a strict CSP', async () => {
    const res = await request(s.app).get('/_inspector/').expect(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.text).toContain(deadId);
    expect(res.text).toContain('dead letter');
  });
});

describe.skipIf(!HAS_CHROMIUM)('the delivery inspector in Chromium', () => {
  it('shows a dead delivery, replays it after the fix, and it turns done', async () => {
    const s = setup();
    await s.receiver.start();
    const server: Server = await new Promise((resolve) => {
      const srv = s.app.listen(0, '127.0.0.1', () => resolve(srv));
    });
    const browser = await launchBrowser();
    try {
      const deadId = await deliver(s.app, s.receiver);
      const { port } = server.address() as { port: number };
      const page = await browser.newPage();
      const failures: string[] = [];
      page.on('pageerror', (error) => failures.push(error.message));
      // The page's own requests are judged by their responses; Chromium's favicon probe is not one of them.
      page.on('response', (r) => r.status() >= 400 && failures.push(`${r.status()} ${r.url()}`));
      page.on(
        'console',
        (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && failures.push(m.text()),
      );
      // The mount path as typed, no slash after it: the page's requests must still go under /_inspector.
      await page.goto(`http://127.0.0.1:${port}/_inspector`);

      const row = page.locator(`tr[data-id="${deadId}"]`);
      await expect.poll(() => row.locator('.status').textContent()).toBe('dead letter');
      await row.click();
      await expect.poll(() => page.locator('#d-headers').textContent()).toContain('X-Service-Signature: [redacted]');
      expect(await page.locator('#d-body').textContent()).toContain('"event": "ticket.created"');
      await screenshot(page, 'inspector-dead-letter');

      s.state.fixed = true;
      await page.locator('#d-replay').click();
      await expect.poll(() => row.locator('.status').textContent(), { timeout: 10_000 }).toBe('done');
      await expect.poll(() => page.locator('#notice').textContent()).toBe('Replayed: 1 queued');
      expect(s.state.handled).toHaveLength(1);
      await screenshot(page, 'inspector-replayed');
      expect(failures).toEqual([]);
    } finally {
      await browser.close();
      server.close();
      await s.receiver.close();
      rmSync(s.dir, { recursive: true, force: true });
    }
  }, 60_000);
});

if (!HAS_CHROMIUM) console.warn(NO_CHROMIUM_MESSAGE);
