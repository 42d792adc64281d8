import { createServer, type Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { HAS_CHROMIUM, launchBrowser, PHONE, pageOverflow, screenshot } from '../support/browser.js';

let emulator: Emulator;
let server: { url: string; close(): Promise<void> };
let browser: Browser;
const admin = () => `Bearer ${emulator.adminKey}`;
const api = () => request(emulator.app);

/** Writes in as a customer; the emulator's clock moves a minute first, so each message is the latest by a minute. */
async function writeIn(handle: string, content: string): Promise<string> {
  await api().post('/_emulator/clock').set('authorization', admin()).send({ advance_seconds: 60 }).expect(200);
  const res = await api()
    .post('/_emulator/inbound')
    .set('authorization', admin())
    .send({ channel: 'phone', from: { handle, name: `Customer ${handle.slice(-3)}` }, content })
    .expect(201);
  return res.body.conversation.id as string;
}

async function openConsole(viewport = { width: 1400, height: 900 }): Promise<{ page: Page; failures: string[] }> {
  const page = await browser.newPage({ viewport });
  const failures: string[] = [];
  page.on('pageerror', (error) => failures.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') failures.push(message.text());
  });
  await page.goto(`${server.url}/_emulator/console#key=${emulator.adminKey}`);
  await page.locator('#console').waitFor({ state: 'visible' });
  return { page, failures };
}

describe.skipIf(!HAS_CHROMIUM)('the console, as a new user tries it, in Chromium', () => {
  beforeAll(async () => {
    emulator = await createEmulator({});
    server = await emulator.listen(0);
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await emulator?.close();
  });

  it('loads every section when it opens, the ones below the fold too, without a scroll', async () => {
    const { page, failures } = await openConsole();
    const loading = page.locator('#console section:not([hidden]) tbody', { hasText: 'Loading…' });
    await expect.poll(() => loading.count(), { timeout: 20_000 }).toBe(0);
    // The API keys are far below the first screen, and listed all the same.
    const keys = page.locator('#panel-keys');
    expect((await keys.boundingBox())!.y).toBeGreaterThan(900);
    expect(await keys.locator('tbody').textContent()).toContain('Emulator admin key');
    expect(await page.evaluate(() => scrollY)).toBe(0);
    expect(failures).toEqual([]);
    await page.close();
  }, 60_000);

  it('lists conversations by latest activity: the customer who wrote last is first', async () => {
    const first = await writeIn('+14155550301', 'First to write');
    const second = await writeIn('+14155550302', 'Second to write');
    const third = await writeIn('+14155550303', 'Third to write');
    await writeIn('+14155550301', 'First writes again');
    const { page, failures } = await openConsole();
    const ids = () =>
      page.locator('#panel-conversations tbody tr').evaluateAll((trs) => trs.slice(0, 3).map((tr) => tr.dataset.id));
    await expect.poll(ids, { timeout: 10_000 }).toEqual([first, third, second]);
    expect(await page.locator('#panel-conversations tbody tr').first().textContent()).toContain('First writes again');
    // The contract's list stays by creation, as its summary says.
    const listed = await api().get('/v1/conversations?limit=3').set('authorization', admin()).expect(200);
    expect(listed.body.data.map((c: { id: string }) => c.id)).toEqual([third, second, first]);
    expect(failures).toEqual([]);
    await page.close();
  }, 60_000);

  it('closes and reopens a conversation from its row, as the API sees it', async () => {
    const id = await writeIn('+14155550311', 'Please close this when done');
    const { page, failures } = await openConsole();
    const row = page.locator(`#panel-conversations tbody tr[data-id="${id}"]`);
    const status = async () =>
      (await api().get(`/v1/conversations/${id}`).set('authorization', admin()).expect(200)).body.status as string;

    await row.getByRole('button', { name: 'Close', exact: true }).click();
    await expect.poll(status, { timeout: 10_000 }).toBe('closed');
    await expect.poll(() => row.locator('td.status').textContent(), { timeout: 10_000 }).toBe('closed');
    expect(await page.locator('#notice').textContent()).toBe('Closed the conversation with Customer 311');
    // A closed conversation offers Reopen, and no Close or Hand off.
    expect(await row.getByRole('button').allTextContents()).toEqual(['Reopen', 'Messages']);

    await row.getByRole('button', { name: 'Reopen' }).click();
    await expect.poll(status, { timeout: 10_000 }).toBe('active');
    await expect.poll(() => row.locator('td.status').textContent(), { timeout: 10_000 }).toBe('active');
    expect(await row.getByRole('button').allTextContents()).toEqual(['Hand off', 'Close', 'Messages']);
    await screenshot(page, 'emulator-console-reopened');
    expect(failures).toEqual([]);
    await page.close();
  }, 60_000);

  it('fits a 375 px phone: its forms wrap, its tables scroll in their sections, the page is no wider', async () => {
    const { page, failures } = await openConsole(PHONE);
    const loading = page.locator('#console section:not([hidden]) tbody', { hasText: 'Loading…' });
    await expect.poll(() => loading.count(), { timeout: 20_000 }).toBe(0);
    expect(await pageOverflow(page)).toBe(0);
    // The customer's form is usable: every field and button inside the window.
    for (const box of await page
      .locator('#inbound > *')
      .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().right)))
      expect(box).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'emulator-console-phone');
    expect(failures).toEqual([]);
    await page.close();
  }, 60_000);

  it('asks for a key before it sends one, and keeps a taken key out of the page', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/_emulator/console`);
    const asked: string[] = [];
    page.on('request', (r) => asked.push(r.url()));
    await page.press('#key', 'Enter');
    // An empty field is the browser's to refuse: no request goes out with no key, and no "refused" is said.
    expect(await page.locator('#key').evaluate((input: HTMLInputElement) => input.validity.valueMissing)).toBe(true);
    expect(asked).toEqual([]);
    expect(await page.locator('#key-error').isHidden()).toBe(true);
    await page.fill('#key', emulator.adminKey);
    await page.press('#key', 'Enter');
    await page.locator('#console').waitFor({ state: 'visible' });
    expect(await page.locator('#key').inputValue()).toBe('');
    await page.close();
  }, 60_000);

  it("refuses another site's page: it cannot close a conversation, nor read the console's list", async () => {
    const id = await writeIn('+14155550321', 'Nobody else may close this');
    // A page on another origin (another port of this machine) that knows even the admin key.
    const other: Server = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<p>x</p>'),
    );
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${(other.address() as { port: number }).port}/`);
      const outcomes = await page.evaluate(
        async ({ base, id, key }) => {
          const attempt = (init: RequestInit, path = `/v1/conversations/${id}`) =>
            fetch(base + path, init).then(
              (r) => `answered ${r.status}`,
              () => 'blocked',
            );
          return [
            // What a form or a no-cors fetch can send without a preflight: no key, a text body.
            await attempt({ method: 'POST', mode: 'no-cors', body: '{"status":"closed"}' }),
            // With the key, the browser must ask first, and the emulator grants no other origin.
            await attempt({
              method: 'PATCH',
              headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
              body: '{"status":"closed"}',
            }),
            await attempt({ headers: { authorization: `Bearer ${key}` } }, '/_emulator/console/conversations'),
          ];
        },
        { base: server.url, id, key: emulator.adminKey },
      );
      // The no-cors answer is opaque (status 0) and closes nothing; the others never reach a handler.
      expect(outcomes).toEqual(['answered 0', 'blocked', 'blocked']);
      const conversation = await api().get(`/v1/conversations/${id}`).set('authorization', admin()).expect(200);
      expect(conversation.body.status).toBe('active');
      await page.close();
    } finally {
      other.close();
    }
    // The console's own read refuses another origin's request at the server, with the key too, as every
    // /_emulator route does (requireAdmin).
    const refused = await api()
      .get('/_emulator/console/conversations')
      .set('authorization', admin())
      .set('origin', 'http://127.0.0.1:1')
      .expect(403);
    expect(refused.body.error).toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringContaining("another site's page"),
    });
    await api().get('/_emulator/console/conversations').expect(401);
    await api().get('/_emulator/console/conversations?limit=0').set('authorization', admin()).expect(400);
  }, 60_000);
});
