import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleFixture, type CoreBuild } from './runtimes/build-core.js';
import { type PreparedScenario, prepareScenario } from './runtimes/prepared-scenario.js';
import { findChromium, skipReason } from './runtimes/runtime-binaries.js';
import {
  expectPortableOutcome,
  type ScenarioConfig,
  type ScenarioOutcome,
} from './runtimes/scenario.js';

// Headless Chromium (Debian's package) runs the built bundle in a page. The page is served
// at the emulator's origin, so the calls are same-origin: this tests core, not CORS.

const chromiumPath = findChromium();
const missing = skipReason(chromiumPath.missing);
const PAGE_PATH = '/__catalogkit_runtimes__.html';

let core: CoreBuild;
let scenario: PreparedScenario | undefined;
let config: ScenarioConfig;
let reference: ScenarioOutcome;
let browser: Browser | undefined;

// Builds core and starts Chromium: allow more than vitest's 10 s hook default on a busy CI.
beforeAll(async () => {
  if (missing) return;
  scenario = await prepareScenario();
  ({ core, config, reference } = scenario);
  browser = await chromium.launch({
    executablePath: chromiumPath.path,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await scenario?.close();
});

describe('core in a browser (headless Chromium)', () => {
  it.skipIf(missing)(
    `website and catalog (SSE) search from a page, like Node${missing ? ` (skipped: ${missing})` : ''}`,
    async () => {
      const bundle = join(core.outDir, 'browser.js');
      await bundleFixture(core, { entry: 'global-entry.mjs', outfile: bundle, format: 'iife' });
      const page = await browser!.newPage();
      const pageUrl = new URL(PAGE_PATH, config.baseUrl).href;
      // Only the page itself is made up; core's requests reach the real emulator.
      await page.route(pageUrl, (route) =>
        route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>runtimes</title>' }),
      );
      await page.goto(pageUrl);
      await page.addScriptTag({ path: bundle });
      const json = await page.evaluate(async (scenarioConfig) => {
        const scope = globalThis as unknown as {
          runScenario(config: unknown): Promise<unknown>;
        };
        return JSON.stringify(await scope.runScenario(scenarioConfig));
      }, config);
      expectPortableOutcome(JSON.parse(json) as ScenarioOutcome, 'browser', reference, config);
      // A page has none of Node's globals: core would have thrown above had it read one.
      const nodeGlobals = await page.evaluate(() =>
        ['process', 'Buffer', 'require'].filter((name) => name in globalThis),
      );
      expect(nodeGlobals).toEqual([]);
    },
  );
});
