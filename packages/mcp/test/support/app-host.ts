import { fileURLToPath } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { build } from 'esbuild';
import { type Browser, chromium, type FrameLocator, type Page } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const HOST_URL = 'http://host.test/chat';

export function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}

let hostScript: Promise<string> | undefined;

/** The host page's script: ext-apps' AppBridge bundled for the browser, once per run. */
function bundledHost(): Promise<string> {
  hostScript ??= build({
    entryPoints: [fileURLToPath(new URL('./app-host-page.ts', import.meta.url))],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  }).then((result) => result.outputFiles[0]?.text ?? '');
  return hostScript;
}

/** A view shown by the host page, and everything the page saw besides. */
export interface ShownApp {
  page: Page;
  view: FrameLocator;
  /** Links the view asked the host to open (`ui/open-link`), as received. */
  opened(): Promise<string[]>;
  /** Requests past the host page itself (none is expected: the view loads nothing). */
  requests: string[];
  /** Navigations started (a click that the view did not hand to the host). */
  navigations: string[];
  dialogs: string[];
}

/**
 * Opens the host page in `browser`, embeds the view `html` (the storefront resource as the
 * server sent it) through AppBridge, and sends it the tool's input and result as a host
 * does after a call. Every request other than the host page is recorded and refused.
 */
export async function showApp(
  browser: Browser,
  html: string,
  input: Record<string, unknown>,
  result: CallToolResult,
  options: { openLinks?: boolean } = {},
): Promise<ShownApp> {
  const script = await bundledHost();
  const page = await browser.newPage();
  const shown: ShownApp = {
    page,
    view: page.frameLocator('iframe'),
    opened: () => page.evaluate(() => window.host.opened),
    requests: [],
    navigations: [],
    dialogs: [],
  };
  await page.route('**/*', async (route) => {
    const request = route.request();
    if (request.url() === HOST_URL) {
      return route.fulfill({
        status: 200,
        contentType: 'text/html',
        body: `<!doctype html><html><head><meta charset="utf-8"><title>host</title></head><body><script>${script}</script></body></html>`,
      });
    }
    if (request.isNavigationRequest()) shown.navigations.push(request.url());
    else shown.requests.push(request.url());
    return route.abort();
  });
  page.on('dialog', (dialog) => {
    shown.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('popup', (popup) => shown.navigations.push(popup.url()));
  await page.goto(HOST_URL);
  await page.evaluate(
    ({ html, input, result, openLinks }) => window.showApp(html, input, result, openLinks),
    { html, input, result, openLinks: options.openLinks ?? true },
  );
  return shown;
}
