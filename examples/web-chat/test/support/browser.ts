import { existsSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { Capture } from './capture.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why the browser tests cannot run here (outside CI only; in CI a missing browser fails). */
export function chromiumMissing(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  const reason = `${CHROMIUM} not found (apt-get install chromium)`;
  if (process.env.CI) throw new Error(`Chromium missing in CI: ${reason}`);
  return reason;
}

/**
 * Debian's Chromium, headless, with no background traffic of its own. `launch` gives it a
 * fresh temporary profile (user-data-dir), removed on close.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/** A page in its own context (no shared storage), with everything it does captured. */
export interface OpenedPage {
  page: Page;
  context: BrowserContext;
  capture: Capture;
}

export async function openPage(
  browser: Browser,
  url: string,
  viewport: { width: number; height: number } = { width: 960, height: 900 },
): Promise<OpenedPage> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const capture = new Capture();
  await capture.attach(page);
  await page.goto(url);
  return { page, context, capture };
}
