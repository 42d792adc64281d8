import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedDelivery } from '../../src/testing/index.js';
import { HAS_CHROMIUM, launchBrowser, PHONE, pageOverflow, screenshot } from '../support/browser.js';
import { deliver, listening, refreshes, SECRET, setup } from './inspector-harness.js';

/** A delivery of any event name through the receiver's own handle (no handler fails it); its delivery id. */
async function deliverEvent(s: ReturnType<typeof setup>, event: string): Promise<string> {
  const { body, headers, deliveryId } = signedDelivery({ secret: SECRET, envelope: { event, data: {} } });
  expect((await s.receiver.handle({ headers, rawBody: body })).status).toBe(200);
  await s.receiver.idle();
  return deliveryId;
}

describe.skipIf(!HAS_CHROMIUM)('the delivery inspector after replays and with long event names, in Chromium', () => {
  let browser: Browser;
  let s: ReturnType<typeof setup>;
  let app: Awaited<ReturnType<typeof listening>>;
  beforeAll(async () => {
    browser = await launchBrowser();
    s = setup();
    await s.receiver.start();
    app = await listening(s);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  const open = async (hash = '', viewport = { width: 1400, height: 900 }): Promise<Page> => {
    const page = await browser.newPage({ viewport });
    await page.goto(`http://127.0.0.1:${app.port}/_inspector/${hash}`);
    return page;
  };

  it('names each attempt by its replay, where the store numbers every replay from 1 again', async () => {
    // The ticket handler fails and the receiver gives up after one attempt: a dead letter.
    const id = await deliver(s.app, s.receiver);
    const page = await open(`#${encodeURIComponent(id)}`);
    const failures: string[] = [];
    page.on('pageerror', (error) => failures.push(error.message));
    const labels = () => page.locator('#d-attempts tr td:first-child').allTextContents();
    await expect.poll(labels, { timeout: 10_000 }).toEqual(['attempt 1']);

    const expected = ['attempt 1', 'replay 1, attempt 1', 'replay 2, attempt 1'];
    for (const shown of [2, 3]) {
      await page.click('#d-replay');
      await expect.poll(labels, { timeout: 15_000 }).toEqual(expected.slice(0, shown));
    }
    // The list counts the attempts of the last replay, as its column's title says.
    const row = page.locator(`#rows tr[data-id="${id}"]`);
    await expect.poll(() => row.locator('td').nth(4).textContent(), { timeout: 10_000 }).toBe('1');
    expect(await page.locator('th', { hasText: 'Attempts' }).getAttribute('title')).toBe(
      'since it was received or last replayed',
    );
    const answer = await page.evaluate(async (path) => (await fetch(path)).json(), `/_inspector/api/deliveries/${id}`);
    expect(answer.attempts.map((a: { attempt: number; run: number }) => [a.run, a.attempt])).toEqual([
      [0, 1],
      [1, 1],
      [2, 1],
    ]);
    await screenshot(page, 'inspector-replay-attempts');
    expect(failures).toEqual([]);
    await page.close();
  }, 90_000);

  it('breaks event names only after a dot or an underscore, inside their column', async () => {
    const long = 'ticket.escalation.supervisor_on_call_reassigned_after_business_hours_ended';
    const ids = [await deliverEvent(s, 'conversation.assigned'), await deliverEvent(s, long)];
    // Narrow enough that the list's columns must share the width.
    const page = await open('', { width: 1000, height: 800 });
    for (const id of ids) await page.locator(`#rows tr[data-id="${id}"]`).waitFor();
    await expect.poll(() => page.locator('#live').textContent(), { timeout: 10_000 }).toMatch(/^live, updated/);
    const layout = await page.evaluate((wanted) => {
      const section = document.querySelector('#rows')!.closest('section')!.getBoundingClientRect();
      const table = document.querySelector('#rows')!.closest('table')!.getBoundingClientRect();
      return {
        tableInside: table.left >= section.left - 0.5 && table.right <= section.right + 0.5,
        cells: wanted.map((id) => {
          const cell = document.querySelector<HTMLElement>(`#rows tr[data-id="${id}"] td.event`)!;
          const box = cell.getBoundingClientRect();
          // A text node drawn on two lines has two boxes: each piece between break points is on one line.
          const pieces = [...cell.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE);
          const lines = pieces.map((n) => {
            const range = document.createRange();
            range.selectNodeContents(n);
            return range.getClientRects().length;
          });
          const tops = new Set(
            pieces.map((n) => {
              const range = document.createRange();
              range.selectNodeContents(n);
              return Math.round(range.getBoundingClientRect().top);
            }),
          );
          return {
            text: cell.textContent,
            fits: cell.scrollWidth <= cell.clientWidth && box.width > 0,
            piecesOnOneLine: lines.every((n) => n === 1),
            lines: tops.size,
          };
        }),
      };
    }, ids);
    expect(layout.tableInside).toBe(true);
    expect(layout.cells.map((c) => c.text)).toEqual(['conversation.assigned', long]);
    for (const cell of layout.cells) {
      expect(cell.fits, cell.text!).toBe(true);
      expect(cell.piecesOnOneLine, cell.text!).toBe(true);
    }
    // The long one needed more than one line, and broke only where it may.
    expect(layout.cells[1]!.lines).toBeGreaterThan(1);
    await screenshot(page, 'inspector-event-names');
    await page.close();
  }, 60_000);

  it('empties the list and says why when the list refuses a filter, never the rows of the filters before', async () => {
    const id = await deliverEvent(s, 'ticket.created');
    const page = await open();
    await page.locator(`#rows tr[data-id="${id}"]`).waitFor();
    // A namespace the service has none of: the list API answers 400, as the page's address would.
    await page.fill('#event', 'tickets.*');
    await page.press('#event', 'Enter');
    await expect.poll(() => page.locator('#rows tr').count(), { timeout: 10_000 }).toBe(0);
    expect(await page.locator('#empty').isVisible()).toBe(true);
    expect(await page.locator('#empty-why').textContent()).toMatch(/^The filters cannot be read: event: expected/);
    expect(await page.locator('#empty-hint').isHidden()).toBe(true);
    // A filter it reads lists again, with the hint for an empty list back.
    await page.fill('#event', 'ticket.*');
    await page.press('#event', 'Enter');
    await page.locator(`#rows tr[data-id="${id}"]`).waitFor();
    await page.fill('#event', 'message.*');
    await page.press('#event', 'Enter');
    await expect
      .poll(() => page.locator('#empty-why').textContent(), { timeout: 10_000 })
      .toMatch(/^No deliveries match/);
    expect(await page.locator('#empty-hint').isVisible()).toBe(true);
    await page.close();
  }, 60_000);

  it('fits a 375 px phone: the list scrolls in its section, and a row still opens', async () => {
    // A dead letter: its row carries the handler's error.
    const id = await deliver(s.app, s.receiver);
    const page = await open('', PHONE);
    const row = page.locator(`#rows tr[data-id="${id}"]`);
    await row.waitFor();
    expect(await row.locator('td.error').textContent()).not.toBe('');
    expect(await pageOverflow(page)).toBe(0);
    // The error does not squeeze into a column a few letters wide (a row taller than the screen): the list
    // scrolls sideways in its section instead.
    expect((await row.locator('td.error').boundingBox())!.width).toBeGreaterThan(150);
    expect((await row.boundingBox())!.height).toBeLessThan(PHONE.height / 2);
    await page.locator(`#rows tr[data-id="${id}"]`).click();
    await expect.poll(() => page.locator('#d-id').textContent(), { timeout: 10_000 }).toBe(id);
    expect(await pageOverflow(page)).toBe(0);
    await screenshot(page, 'inspector-phone');
    await page.close();
  }, 60_000);

  it('says an address naming no delivery names none, not that it was pruned, and closes it', async () => {
    const page = await open('#dlv_never_stored');
    await expect
      .poll(() => page.locator('#notice').textContent(), { timeout: 10_000 })
      .toBe('No delivery dlv_never_stored');
    await refreshes(page, 2);
    expect(await page.locator('#notice').textContent()).toBe('No delivery dlv_never_stored');
    expect(new URL(page.url()).hash).toBe('');
    expect(await page.locator('#detail-empty').isVisible()).toBe(true);
    await page.close();
  }, 60_000);
});
