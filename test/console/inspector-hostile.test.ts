import { createServer, type Server } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { Browser } from 'playwright-core';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, launchBrowser, screenshot } from '../support/browser.js';
import { INSPECTOR_PATH } from '../../src/receiver/index.js';
import { signedDelivery } from '../../src/testing/index.js';
import { KEPT_FIELDS, SECRET_FIELDS } from '../support/secret-fields.js';
import { deliver, listening, refreshes, SECRET, setup, teardown } from './inspector-harness.js';

/** What the cors() package answers by default: any origin may read, and every preflight passes. */
const permissiveCors = (req: { method: string }, res: Response, next: () => void) => {
  res.setHeader('access-control-allow-origin', '*');
  if (req.method !== 'OPTIONS') return next();
  res.setHeader('access-control-allow-headers', 'content-type');
  res.setHeader('access-control-allow-methods', 'GET,POST');
  res.status(204).end();
};

/** cors({ origin: true, credentials: true }): any origin may read, cookies included. */
const credentialedCors = (req: Request, res: Response, next: NextFunction) => {
  if (req.headers.origin) {
    res.setHeader('access-control-allow-origin', req.headers.origin);
    res.setHeader('access-control-allow-credentials', 'true');
  }
  if (req.method !== 'OPTIONS') return next();
  res.setHeader('access-control-allow-headers', 'content-type, authorization');
  res.setHeader('access-control-allow-methods', 'GET,POST');
  res.status(204).end();
};

const TOKEN = 'tok-inspector-0123456789-abcdef';

/** A page of another origin, on 127.0.0.1 at a port of its own: it serves "hi", its script is the test's. */
async function anotherOrigin(): Promise<{ port: number; close(): void }> {
  const server: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('hi'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, close: () => server.close() };
}

describe('the delivery inspector over HTTP, asked badly', () => {
  const s = setup();
  beforeAll(() => s.receiver.start());
  afterAll(() => teardown(s));

  it('redacts secret-looking fields by more names, and credential-looking values under any name', async () => {
    const [secrets, kept] = [SECRET_FIELDS, KEPT_FIELDS];
    const id = await deliver(s.app, s.receiver, { data: { metadata: { ...secrets, ...kept } } });
    const res = await request(s.app).get(`/_inspector/api/deliveries/${id}`).expect(200);
    const metadata = res.body.body.json.data.metadata;
    for (const [name, value] of Object.entries(secrets)) {
      expect([name, metadata[name]]).toEqual([name, '[redacted]']);
      expect(JSON.stringify(res.body)).not.toContain(value);
    }
    expect(metadata).toMatchObject(kept);
  });

  it('lists a delivery whose event name is near the body limit by its first 200 characters', async () => {
    const envelope = hugeEnvelope();
    const id = await deliverEnvelope(s, envelope);
    const list = await request(s.app).get('/_inspector/api/deliveries?limit=200').expect(200);
    expect(list.text.length).toBeLessThan(50_000);
    expect(list.body.data.find((d: { id: string }) => d.id === id).event).toBe(`${envelope.event.slice(0, 200)}…`);
    const one = await request(s.app).get(`/_inspector/api/deliveries/${id}`).expect(200);
    expect(one.body.event).toBe(envelope.event);
    expect(one.body.body.json.data.filler).toHaveLength(600_000);
  });

  it('shows a delivery whose id holds a colon, asked for percent-encoded as the page asks, and names a bad id', async () => {
    const { body, headers } = signedDelivery({ secret: SECRET, event: 'ticket.created', deliveryId: 'evt:2026:1' });
    expect((await s.receiver.handle({ headers, rawBody: body })).status).toBe(200);
    const res = await request(s.app).get('/_inspector/api/deliveries/evt%3A2026%3A1').expect(200);
    expect(res.body.id).toBe('evt:2026:1');
    await request(s.app).get('/_inspector/api/deliveries/evt:2026:1').expect(200);
    const bad = await request(s.app).get('/_inspector/api/deliveries/%3Cimg%3E').expect(400);
    expect(bad.body.error.message).toMatch(/^id: /);
    await request(s.app).get('/_inspector/api/deliveries/%E0%A4%A').expect(400);
  });

  it('pages through thousands of deliveries, each once, and its page holds the first 50 only', async () => {
    const before = (await request(s.app).get('/_inspector/api/deliveries?limit=200').expect(200)).body.data.length;
    const ids = await Promise.all(
      Array.from({ length: 2500 }, async () => {
        const { body, headers, deliveryId } = signedDelivery({ secret: SECRET, event: 'contact.updated' });
        expect((await s.receiver.handle({ headers, rawBody: body })).status).toBe(200);
        return deliveryId;
      }),
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const res = await request(s.app).get(`/_inspector/api/deliveries?limit=200${query}`).expect(200);
      expect(res.body.data.length).toBeLessThanOrEqual(200);
      seen.push(...res.body.data.map((d: { id: string }) => d.id));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(2500 + before);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expect.arrayContaining(ids));
    const page = await request(s.app).get('/_inspector/').expect(200);
    expect(page.text.match(/<tr data-id=/g)).toHaveLength(50);
  }, 60_000);

  it('replays 100 ids of the longest kind at once, and names a replay body that is not JSON or too large', async () => {
    const longest = Array.from({ length: 100 }, (_, i) => `dlv_${String(i).padStart(196, '0')}`);
    const many = await request(s.app).post('/_inspector/api/replay').send({ ids: longest }).expect(200);
    expect(many.body.results).toHaveLength(100);
    expect(many.body.results[0]).toEqual({ id: longest[0], outcome: 'missing' });
    const notJson = await request(s.app)
      .post('/_inspector/api/replay')
      .set('content-type', 'application/json')
      .send('{"ids": [')
      .expect(400);
    expect(notJson.body.error).toMatchObject({
      code: 'MALFORMED_JSON',
      message: expect.stringMatching(/^The body is not JSON/),
    });
    const huge = await request(s.app)
      .post('/_inspector/api/replay')
      .send({ ids: ['x'], pad: 'y'.repeat(40_000) })
      .expect(413);
    expect(huge.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    const bare = await request(s.app).post('/_inspector/api/replay').set('content-type', 'application/json').send('42');
    expect([bare.status, bare.body.error.message]).toEqual([400, expect.stringMatching(/^body: /)]);
  });

  it('refuses a filter given twice, naming it, rather than reading one of them', async () => {
    const res = await request(s.app).get('/_inspector/api/deliveries?status=dead&status=done').expect(400);
    expect(res.body.error).toEqual({ code: 'VALIDATION_FAILED', message: 'status: given more than once' });
  });

  it('answers a cursor that no list returned with a 400 naming it, not a store failure', async () => {
    const res = await request(s.app).get('/_inspector/api/deliveries?cursor=not-a-cursor').expect(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringMatching(/^cursor: /) });
  });
});

/** A signed delivery of any envelope, through the receiver's own handle; its delivery id. */
async function deliverEnvelope(s: ReturnType<typeof setup>, envelope: object): Promise<string> {
  const { body, headers, deliveryId } = signedDelivery({ secret: SECRET, envelope });
  expect((await s.receiver.handle({ headers, rawBody: body })).status).toBe(200);
  await s.receiver.idle();
  return deliveryId;
}

/** An event name and body near the receiver's 1 MiB limit: the list stays small, the delivery's view is whole. */
const hugeEnvelope = () => ({
  event: `ticket.${'x'.repeat(400_000)}`,
  data: { filler: 'y'.repeat(600_000) },
});

describe.skipIf(!HAS_CHROMIUM)('the delivery inspector against a hostile page, in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser.close();
  });

  it('shows deliveries whose event, body and errors hold markup as text everywhere, asking nothing of elsewhere', async () => {
    const s = setup();
    const markup = `<img src=x onerror="window.__xss=1"></script><script>window.__xss=2</script><a href="javascript:window.__xss=3">x</a>`;
    s.receiver.on('*', async () => {
      throw new Error(markup);
    });
    await s.receiver.start();
    const app = await listening(s);
    try {
      const id = await deliverEnvelope(s, { event: markup, data: { note: markup, url: 'javascript:window.__xss=4' } });
      const huge = await deliverEnvelope(s, hugeEnvelope());
      const page = await browser.newPage();
      const elsewhere: string[] = [];
      // Nothing but the page and its own API: no font, script or icon, from anywhere (the app's own favicon included).
      page.on(
        'request',
        (r) => !r.url().startsWith(`http://127.0.0.1:${app.port}/_inspector/`) && elsewhere.push(r.url()),
      );
      page.on('dialog', (d) => elsewhere.push(`dialog ${d.message()}`) && void d.dismiss());
      const response = await page.goto(`http://127.0.0.1:${app.port}/_inspector/`);
      const csp = response!.headers()['content-security-policy']!;
      expect(csp).toMatch(/script-src 'nonce-[^' ]+';/);
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).toContain("frame-ancestors 'none'");
      expect(response!.headers()).toMatchObject({
        'x-content-type-options': 'nosniff',
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-resource-policy': 'same-origin',
        'referrer-policy': 'no-referrer',
      });

      const row = page.locator(`tr[data-id="${id}"]`);
      expect(await row.locator('td').nth(2).textContent()).toBe(markup);
      expect(await row.locator('td.error').textContent()).toContain(markup);
      await row.click();
      await expect.poll(() => page.locator('#d-headers').textContent()).toContain(`X-Service-Event: ${markup}`);
      expect(await page.locator('#d-body').textContent()).toContain(JSON.stringify(markup));
      expect(await page.locator('#d-attempts td.error').textContent()).toContain(markup);
      await refreshes(page, 1);
      expect(await row.locator('td').nth(2).textContent()).toBe(markup);

      // A body near the limit opens, and the page goes on answering.
      await page.locator(`tr[data-id="${huge}"]`).click();
      await expect.poll(() => page.locator('#d-id').textContent()).toBe(huge);
      // Its 2000-character error is cut short in the list, and whole in its attempts.
      expect((await page.locator(`tr[data-id="${huge}"] td.error`).textContent())!.length).toBe(300);
      expect((await page.locator('#d-attempts td.error').textContent())!.length).toBe(2000);
      expect((await page.locator('#d-body').textContent())!.length).toBeGreaterThan(1_000_000);
      await refreshes(page, 1);

      // Long values wrap: the page is no wider than the window.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        page.viewportSize()!.width,
      );
      expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
      expect(await page.locator('img, a[href], #rows script, main script').count()).toBe(0);
      expect(elsewhere).toEqual([]);
      await screenshot(page, 'inspector-markup-as-text');
      await page.close();
    } finally {
      await app.close();
    }
  }, 60_000);

  it('says in words that the app stopped answering', async () => {
    const s = setup();
    await s.receiver.start();
    const app = await listening(s);
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${app.port}/_inspector/`);
    await refreshes(page, 1);
    await app.close();
    await expect
      .poll(() => page.locator('#live').textContent(), { timeout: 10_000 })
      .toBe('not updating: The app serving the inspector did not answer (is it still running?)');
    await page.close();
  }, 60_000);

  it("does not let another origin's page read deliveries or replay, even in an app that answers CORS for all", async () => {
    const s = setup(permissiveCors);
    await s.receiver.start();
    const app = await listening(s);
    const evil = await anotherOrigin();
    try {
      const deadId = await deliver(s.app, s.receiver);
      const page = await browser.newPage();
      // Another origin (localhost, not 127.0.0.1) whose script asks the inspector at 127.0.0.1 directly.
      await page.goto(`http://localhost:${evil.port}/`);
      const seen = await page.evaluate(
        async ({ base, id }) => {
          const attempt = (url: string, init?: RequestInit) =>
            fetch(url, init).then(
              async (r) => `${r.status} ${await r.text()}`,
              (e: Error) => `refused: ${e.message}`,
            );
          return {
            list: await attempt(`${base}/api/deliveries`),
            one: await attempt(`${base}/api/deliveries/${id}`),
            page: await attempt(`${base}/`),
            replay: await attempt(`${base}/api/replay`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ ids: [id] }),
            }),
          };
        },
        { base: `http://127.0.0.1:${app.port}/_inspector`, id: deadId },
      );
      for (const answer of Object.values(seen)) {
        expect(answer).not.toContain(deadId);
        expect(answer).toMatch(/^403 /);
      }
      expect(s.state.handled).toEqual([]);
      // The same browser on the inspector's own page still sees it.
      await page.goto(`http://127.0.0.1:${app.port}/_inspector/`);
      await expect.poll(() => page.locator(`tr[data-id="${deadId}"]`).count()).toBe(1);
      await page.close();
    } finally {
      evil.close();
      await app.close();
    }
  }, 60_000);

  it('opened with ?token=, takes the token out of the address, keeps loading its data, and a reload still opens it', async () => {
    const s = setup(credentialedCors, { token: TOKEN });
    await s.receiver.start();
    const app = await listening(s);
    // Another origin on the same site (another port of 127.0.0.1): the browser sends it the inspector's cookie.
    const evil = await anotherOrigin();
    try {
      const deadId = await deliver(s.app, s.receiver);
      const context = await browser.newContext();
      const page = await context.newPage();
      const inspector = `http://127.0.0.1:${app.port}${INSPECTOR_PATH}`;
      await page.goto(`${inspector}/?token=${TOKEN}&status=dead`);

      await expect.poll(() => page.evaluate(() => location.search)).toBe('?status=dead');
      // Replaced, not pushed: the tab's history holds about:blank and this address only, no entry with the token.
      expect(await page.evaluate(() => history.length)).toBe(2);
      expect(await page.content()).not.toContain(TOKEN);
      // Its own requests still carry the token: the list refreshes and a delivery opens.
      await refreshes(page, 1);
      expect(await page.locator('#live').textContent()).toMatch(/^live, updated/);
      await page.locator(`tr[data-id="${deadId}"]`).click();
      await expect.poll(() => page.locator('#d-id').textContent()).toBe(deadId);
      expect(page.url()).toBe(`${inspector}/?status=dead#${deadId}`);
      // Kept where the page's script cannot read it, sent to the inspector's own path only.
      const [cookie, ...others] = await context.cookies();
      expect(others).toEqual([]);
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: INSPECTOR_PATH });
      expect(await page.evaluate(() => document.cookie)).toBe('');

      await page.reload();
      await refreshes(page, 1);
      expect(await page.locator(`tr[data-id="${deadId}"]`).count()).toBe(1);

      // A filter it cannot read: its page drops the token from the address too.
      const refused = await page.goto(`${inspector}/?token=${TOKEN}&status=lost`);
      expect(refused!.status()).toBe(400);
      await expect.poll(() => page.evaluate(() => location.search)).toBe('?status=lost');

      // A page of another origin in the same browser, which sends the cookie along, still reads nothing.
      await page.goto(`http://127.0.0.1:${evil.port}/`);
      const seen = await page.evaluate(async (base) => {
        const r = await fetch(`${base}/api/deliveries`, { credentials: 'include' });
        return `${r.status} ${await r.text()}`;
      }, inspector);
      expect(seen).toMatch(/^403 /);
      expect(seen).not.toContain(deadId);
      await context.close();
    } finally {
      evil.close();
      await app.close();
    }
  }, 60_000);
});
