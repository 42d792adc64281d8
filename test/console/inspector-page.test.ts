import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSPECTOR_MAX_ROWS } from '../../src/console/inspector/inspector-api.js';
import { signedDelivery } from '../../src/testing/index.js';
import { HAS_CHROMIUM, launchBrowser, screenshot } from '../support/browser.js';
import { deliver, listening, refreshes, SECRET, setup } from './inspector-harness.js';

describe.skipIf(!HAS_CHROMIUM)('the delivery inspector page as a person uses it, in Chromium', () => {
  let browser: Browser;
  let s: ReturnType<typeof setup>;
  let app: Awaited<ReturnType<typeof listening>>;
  let newest: string[];
  beforeAll(async () => {
    browser = await launchBrowser();
    s = setup();
    await s.receiver.start();
    app = await listening(s);
    // 120 deliveries (more than two pages of 50), stored through the receiver itself.
    const ids: string[] = [];
    for (let i = 0; i < 120; i++) {
      const { body, headers, deliveryId } = signedDelivery({ secret: SECRET, event: 'ticket.created' });
      expect((await s.receiver.handle({ headers, rawBody: body })).status).toBe(200);
      ids.push(deliveryId);
    }
    await s.receiver.idle();
    newest = ids.reverse();
  }, 60_000);
  afterAll(async () => {
    await browser.close();
    await app.close();
  });

  const open = async (path = '', options: Parameters<Browser['newPage']>[0] = {}) => {
    const page = await browser.newPage(options);
    await page.goto(`http://127.0.0.1:${app.port}/_inspector${path}`);
    return page;
  };
  const rowIds = (page: Page) => page.locator('#rows tr').evaluateAll((trs) => trs.map((tr) => tr.dataset.id));

  it('keeps its filters in the address, so a reload shows the same list', async () => {
    const page = await open('?status=dead&event=ticket.*&within=60');
    expect(await page.locator('#status').inputValue()).toBe('dead');
    expect(await page.locator('#event').inputValue()).toBe('ticket.*');
    expect(await page.locator('#within').inputValue()).toBe('60');
    await refreshes(page, 1);
    expect(await page.locator('#rows tr').count()).toBe(50);

    await page.locator('#status').selectOption('done');
    await expect.poll(() => page.url()).toContain('status=done');
    await page.reload();
    expect(await page.locator('#status').inputValue()).toBe('done');
    await refreshes(page, 1);
    expect(await page.locator('#rows tr').count()).toBe(0);
    // The empty list says why, and what to do.
    expect(await page.locator('#empty').textContent()).toMatch(
      /No deliveries match the filters \(status done, event ticket\.\*, within 60\)/,
    );
    await screenshot(page, 'inspector-filtered-empty');
    await page.close();
  }, 60_000);

  it('shows a filter it cannot read as the error, with no list, and links on to every delivery', async () => {
    for (const [query, reason] of [
      ['?status=bogus', /^status: /],
      ['?limit=abc', /^limit: expected an integer/],
    ] as const) {
      const page = await browser.newPage();
      const answer = await page.goto(`http://127.0.0.1:${app.port}/_inspector/${query}`);
      expect(answer?.status()).toBe(400);
      await expect.poll(() => page.locator('#query-error').textContent()).toMatch(reason);
      expect(await page.locator('#rows tr').count()).toBe(0);
      await page.getByRole('link', { name: 'Show every delivery' }).click();
      await page.waitForURL(`http://127.0.0.1:${app.port}/_inspector/`);
      await refreshes(page, 1);
      expect(await rowIds(page)).toEqual(newest.slice(0, 50));
      await page.close();
    }
  }, 60_000);

  it('keeps the older deliveries it was asked for through its refreshes', async () => {
    const page = await open();
    await expect.poll(() => rowIds(page)).toEqual(newest.slice(0, 50));
    await page.locator('#more').click();
    await expect.poll(() => page.locator('#rows tr').count()).toBe(100);
    await page.locator('#more').click();
    await expect.poll(() => page.locator('#rows tr').count()).toBe(120);
    expect(await page.locator('#more').isHidden()).toBe(true);
    await refreshes(page, 2);
    expect(await rowIds(page)).toEqual(newest);
    await page.close();
  }, 60_000);

  it('works from the keyboard, and a refresh neither moves the focus nor clears a selection in the body', async () => {
    const page = await open();
    await expect.poll(() => page.locator('#rows tr').count()).toBe(50);
    const focusedRow = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.id ?? null);
    // Tab from the top of the page reaches the first row: the filters, its button, then the row's own tick box.
    let tabs = 0;
    while ((await focusedRow()) !== newest[0] && tabs++ < 20) await page.keyboard.press('Tab');
    expect(await focusedRow()).toBe(newest[0]);
    await page.keyboard.press('ArrowDown');
    expect(await focusedRow()).toBe(newest[1]);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#d-id').textContent()).toBe(newest[1]);
    // The open delivery is in the address too: a reload shows it again.
    await expect.poll(() => page.url()).toMatch(new RegExp(`#${newest[1]}$`));
    await page.reload();
    await expect.poll(() => page.locator('#d-id').textContent()).toBe(newest[1]);
    await page.locator(`tr[data-id="${newest[1]}"]`).focus();

    // Select part of the body, as someone about to copy it.
    await page.evaluate(() => {
      const range = document.createRange();
      range.selectNodeContents(document.getElementById('d-body')!);
      getSelection()!.removeAllRanges();
      getSelection()!.addRange(range);
    });
    await refreshes(page, 2);
    expect(await focusedRow()).toBe(newest[1]);
    expect(await page.evaluate(() => getSelection()!.toString())).toContain('"event": "ticket.created"');
    await page.close();
  }, 60_000);

  it('shows times with their zone and the month by name', async () => {
    const page = await open('', { timezoneId: 'America/New_York', locale: 'en-US' });
    const first = page.locator('#rows tr').first();
    await expect
      .poll(() => first.locator('td').nth(1).textContent())
      .toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, .* (EST|EDT) \(/);
    await first.click();
    await expect
      .poll(() => page.locator('#d-attempts td').nth(2).textContent())
      .toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, .* (EST|EDT) \(/);
    // The steps the handler journaled, each with its time shown the same way.
    expect(await page.locator('#d-steps td').first().textContent()).toBe('crm-lookup');
    expect(await page.locator('#d-steps td').nth(1).textContent()).toBe('done');
    expect(await page.locator('#d-steps td').nth(2).textContent()).toMatch(/ (EST|EDT) \(/);
    expect(await page.locator('#d-steps-table').isVisible()).toBe(true);
    expect(await page.locator('#d-steps-empty').isVisible()).toBe(false);
    // The signed timestamp stays as it came, with the time it names beside it, as every time on the page.
    const headers = (await page.locator('#d-headers').textContent())!;
    const [, seconds, shown] = /^X-Service-Timestamp: (\d+) \((.*)\)$/m.exec(headers) ?? [];
    const expected = await page.evaluate(
      (at) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'long' }).format(new Date(at)),
      Number(seconds) * 1000,
    );
    expect(shown).toMatch(/ \(.+ ago\)$/);
    expect(shown!.replace(/ \(.+ ago\)$/, '')).toBe(expected);
    await page.close();
  }, 60_000);

  it('says so when the open delivery is pruned, and goes on updating the list', async () => {
    const page = await open();
    const id = await deliver(s.app, s.receiver, {}, true);
    const row = page.locator(`tr[data-id="${id}"]`);
    await expect.poll(() => row.locator('.status').textContent(), { timeout: 10_000 }).toBe('done');
    await row.click();
    await expect.poll(() => page.locator('#d-id').textContent()).toBe(id);
    expect(await s.receiver.store.prune(Date.now() + 1)).toBe(1);
    await expect
      .poll(() => page.locator('#notice').textContent(), { timeout: 10_000 })
      .toBe(`Delivery ${id} is no longer stored (done deliveries are pruned after a while).`);
    expect(await page.locator('#detail-body').isHidden()).toBe(true);
    await refreshes(page, 1);
    expect(await page.locator('#live').textContent()).toMatch(/^live, updated /);
    expect(await row.count()).toBe(0);
    await page.close();
  }, 60_000);

  it('draws the list for the filters set last, even when an older refresh answers after it', async () => {
    const page = await open();
    await expect.poll(() => page.locator('#rows tr').count()).toBe(50);
    // The next refresh under "all" is held in the network until the list under "done" is drawn; after
    // that, no other refresh gets through, so only the held one could draw again.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let held: string | null = null;
    let blockRest = false;
    await page.route('**/_inspector/api/deliveries?*', async (route) => {
      if (blockRest) return;
      if (held === null && !route.request().url().includes('status=')) {
        held = route.request().url();
        await gate;
      }
      await route.continue();
    });
    await expect.poll(() => held, { timeout: 10_000 }).not.toBeNull();
    await page.locator('#status').selectOption('done');
    await expect.poll(() => page.locator('#rows tr').count()).toBe(0);
    blockRest = true;
    const finished = page.waitForEvent('requestfinished', (r) => r.url() === held);
    release();
    await finished;
    // Let the page read that answer (it would draw it at once).
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200)));
    expect(await page.locator('#rows tr').count()).toBe(0);
    expect(await page.locator('#status').inputValue()).toBe('done');
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.close();
  }, 60_000);

  // Last: it replays every delivery the others look at.
  it('ticks every delivery shown with one box, and replays more than 100 of them in one click', async () => {
    const page = await open();
    await expect.poll(() => page.locator('#rows tr').count()).toBe(50);
    await page.locator('#more').click();
    await page.locator('#more').click();
    await expect.poll(() => page.locator('#rows tr').count()).toBe(120);
    await page.locator('#pick-all').check();
    expect(await page.locator('#replay-selected').textContent()).toBe('Replay selected (120)');
    s.state.fixed = true;
    await page.locator('#replay-selected').click();
    // Said where a screen reader hears it.
    await expect.poll(() => page.getByRole('status').textContent(), { timeout: 20_000 }).toMatch(/^Replayed: 120 /);
    await s.receiver.idle();
    expect(s.state.handled).toHaveLength(120);
    await page.close();
  }, 60_000);
});

describe.skipIf(!HAS_CHROMIUM)('the delivery inspector page over a few thousand deliveries, in Chromium', () => {
  const STORED = 3000;
  let browser: Browser;
  let s: ReturnType<typeof setup>;
  let app: Awaited<ReturnType<typeof listening>>;
  /** Ids newest first, each received a second after the one before it. */
  const newest: string[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
    s = setup();
    app = await listening(s);
    // Stored straight into the receiver's store (its worker is not started: the page only reads).
    // On whole seconds, as the jump's input is to the second: it starts right after the last row shown.
    const start = (Math.floor(Date.now() / 1000) - STORED - 60) * 1000;
    const body = new TextEncoder().encode('{"event":"contact.updated","data":{}}');
    for (let i = 0; i < STORED; i++) {
      const id = `dlv_bulk_${String(i).padStart(5, '0')}`;
      const receivedAt = start + i * 1000;
      const timestamp = String(Math.floor(receivedAt / 1000));
      await s.receiver.store.record({
        id,
        eventId: null,
        event: 'contact.updated',
        body,
        signature: 'sha256=00',
        timestamp,
        receivedAt,
      });
      newest.unshift(id);
    }
  }, 120_000);
  afterAll(async () => {
    await browser.close();
    await app.close();
  });

  it(`holds at most ${INSPECTOR_MAX_ROWS} rows through its refreshes, then offers the filters and a jump by time`, async () => {
    const page = await browser.newPage();
    const listed: number[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname.endsWith('/api/deliveries')) listed.push(Number(url.searchParams.get('limit')));
    });
    await page.goto(`http://127.0.0.1:${app.port}/_inspector/`);
    const count = () => page.locator('#rows tr').count();
    await expect.poll(count).toBe(50);
    for (let shown = 50; shown < INSPECTOR_MAX_ROWS; shown += 50) {
      await page.locator('#more').click();
      await expect.poll(count).toBe(shown + 50);
    }
    expect(await page.locator('#more').isHidden()).toBe(true);
    await expect.poll(() => page.locator('#capped').isVisible()).toBe(true);
    expect(await page.locator('#capped').textContent()).toMatch(
      new RegExp(`at most ${INSPECTOR_MAX_ROWS} deliveries, and more match\\. Narrow the filters`),
    );
    // A refresh reloads the rows it holds and no more.
    listed.length = 0;
    await refreshes(page, 2);
    expect(listed.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(2 * INSPECTOR_MAX_ROWS);
    expect(await page.locator('#rows tr').evaluateAll((trs) => trs.map((tr) => tr.dataset.id))).toEqual(
      newest.slice(0, INSPECTOR_MAX_ROWS),
    );
    await screenshot(page, 'inspector-capped');

    // The jump lists on from the last row shown, none skipped, and the address keeps it.
    await page.locator('#older').click();
    await expect.poll(() => page.locator('#rows tr').first().getAttribute('data-id')).toBe(newest[INSPECTOR_MAX_ROWS]);
    expect(await count()).toBe(50);
    expect(page.url()).toMatch(/[?&]before=\d{4}-/);
    await page.reload();
    await expect.poll(() => page.locator('#rows tr').first().getAttribute('data-id')).toBe(newest[INSPECTOR_MAX_ROWS]);
    expect(await page.locator('#before').inputValue()).not.toBe('');
    await page.close();
  }, 120_000);
});
