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

describe.skipIf(!HAS_CHROMIUM)('the emulator console with hostile data, in Chromium', () => {
  it("shows a customer's markup as text, and times with their zone and the month by name", async () => {
    const markup = `<img src=x onerror="window.__xss=1"></script><script>window.__xss=2</script>`;
    await request(emulator.app)
      .post('/_emulator/inbound')
      .set('authorization', `Bearer ${emulator.adminKey}`)
      .send({ channel: 'phone', from: { handle: '+14155550999', name: markup }, content: `hi ${markup}` })
      .expect(201);
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ timezoneId: 'Europe/Berlin', locale: 'en-GB' });
      const failures: string[] = [];
      page.on('pageerror', (error) => failures.push(error.message));
      page.on('dialog', (d) => failures.push(`dialog ${d.message()}`) && void d.dismiss());
      await page.goto(`${server.url}/_emulator/console#key=${emulator.adminKey}`);
      await page.locator('#console').waitFor({ state: 'visible' });
      const row = page.locator('#panel-conversations tbody tr', { hasText: 'onerror' });
      await expect.poll(() => row.textContent(), { timeout: 10_000 }).toContain(markup);
      // en-GB in Berlin: "26 Nov 2026, 03:28:45 CET", never 26/11/2026 without a zone.
      await expect
        .poll(() => page.locator('#now').textContent())
        .toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, [\d:]+ (CET|CEST|GMT\+\d)$/);
      expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
      expect(await page.locator('main img').count()).toBe(0);
      await screenshot(page, 'emulator-console-markup-as-text');
      expect(failures).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
