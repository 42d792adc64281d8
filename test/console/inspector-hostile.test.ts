import { createServer, type Server } from 'node:http';
import type { Response } from 'express';
import type { Browser } from 'playwright-core';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, launchBrowser } from '../support/browser.js';
import { deliver, listening, setup, teardown } from './inspector-harness.js';

/** What the cors() package answers by default: any origin may read, and every preflight passes. */
const permissiveCors = (req: { method: string }, res: Response, next: () => void) => {
  res.setHeader('access-control-allow-origin', '*');
  if (req.method !== 'OPTIONS') return next();
  res.setHeader('access-control-allow-headers', 'content-type');
  res.setHeader('access-control-allow-methods', 'GET,POST');
  res.status(204).end();
};

describe('the delivery inspector over HTTP, asked badly', () => {
  const s = setup();
  beforeAll(() => s.receiver.start());
  afterAll(() => teardown(s));

  it('redacts secret-looking fields by more names, and credential-looking values under any name', async () => {
    const secrets = {
      private_key: 'pk_live_one',
      accessKey: 'ak_two',
      auth: 'three',
      session_id: 'sess_four',
      cookie: 'sid=five',
      pwd: 'six',
      forwarded: 'Bearer eyJhbGciOiJIUzI1NiJ9.seven',
      hook: 'whsec_eight',
    };
    const kept = { plan: 'Basic plan', note: 'Bearer of good news', keyword: 'refund' };
    const id = await deliver(s.app, s.receiver, { data: { metadata: { ...secrets, ...kept } } });
    const res = await request(s.app).get(`/_inspector/api/deliveries/${id}`).expect(200);
    const metadata = res.body.body.json.data.metadata;
    for (const [name, value] of Object.entries(secrets)) {
      expect([name, metadata[name]]).toEqual([name, '[redacted]']);
      expect(JSON.stringify(res.body)).not.toContain(value);
    }
    expect(metadata).toMatchObject(kept);
  });

  it('answers a cursor that no list returned with a 400 naming it, not a store failure', async () => {
    const res = await request(s.app).get('/_inspector/api/deliveries?cursor=not-a-cursor').expect(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringMatching(/^cursor: /) });
  });
});

describe.skipIf(!HAS_CHROMIUM)('the delivery inspector against a hostile page, in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser.close();
  });

  it("does not let another origin's page read deliveries or replay, even in an app that answers CORS for all", async () => {
    const s = setup(permissiveCors);
    await s.receiver.start();
    const app = await listening(s);
    const evil: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('hi'));
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    try {
      const deadId = await deliver(s.app, s.receiver);
      const page = await browser.newPage();
      // Another origin (localhost, not 127.0.0.1) whose script asks the inspector at 127.0.0.1 directly.
      await page.goto(`http://localhost:${(evil.address() as { port: number }).port}/`);
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
});
