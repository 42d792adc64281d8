import { createServer, type Server } from 'node:http';
import type { Response } from 'express';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, launchBrowser } from '../support/browser.js';
import { deliver, listening, setup } from './inspector-harness.js';

/** What the cors() package answers by default: any origin may read, and every preflight passes. */
const permissiveCors = (req: { method: string }, res: Response, next: () => void) => {
  res.setHeader('access-control-allow-origin', '*');
  if (req.method !== 'OPTIONS') return next();
  res.setHeader('access-control-allow-headers', 'content-type');
  res.setHeader('access-control-allow-methods', 'GET,POST');
  res.status(204).end();
};

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
