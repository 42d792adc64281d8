import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';

/** Debian's Chromium: `.ci/run` installs it (apt-get install -y chromium) when it is missing. */
export const CHROMIUM = '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM);
export const NO_CHROMIUM_MESSAGE = `browser tests skipped: no ${CHROMIUM}. Install it with \`apt-get install -y chromium\` (bash .ci/run does) and run npm test again.`;

/** Where page screenshots are kept after a run (gitignored), to look at what the tests saw. */
export const SCREENSHOT_DIR = fileURLToPath(new URL('../../.tmp/screenshots/', import.meta.url));

export async function launchBrowser(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking'],
  });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** A phone's window, the narrowest the pages are made for. */
export const PHONE = { width: 375, height: 800 };

/** How far the page is wider than its window (0 when nothing needs a sideways scroll of the whole page). */
export function pageOverflow(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth));
}
