import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type RedisServer,
  skipRedisTests,
  startRedisServer,
} from '../../redis/test/support/redis-server.js';
import { startNextStandIn } from './support/next-server.js';
import { sawSearch, shopperModel, startWorld, type World } from './support/world.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const skip = skipRedisTests || (!existsSync(CHROMIUM) && !process.env.CI);

describe.skipIf(skip)('the Next.js page with useChat and approval, in Chromium', () => {
  let world: World;
  let redis: RedisServer;
  let next: Awaited<ReturnType<typeof startNextStandIn>>;
  let browser: Browser;
  beforeAll(async () => {
    redis = await startRedisServer();
    world = await startWorld(shopperModel);
    process.env.REDIS_URL = redis.url;
    const { POST } = await import('../flows/next/app/api/chat/route.js');
    next = await startNextStandIn(POST);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await next?.close();
    await world?.close();
    await redis?.stop();
  });

  it('Approve saves the product the search found, and the model still sees the search', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(next.url);
    await page
      .locator('input')
      .fill('Find a rain jacket and add the first one to my summer collection.');
    await page.locator('input').press('Enter');
    await page.getByRole('button', { name: 'Approve' }).click({ timeout: 30_000 });
    await page
      .getByText(/^Saved prod_\w+ to your summer collection\.$/)
      .waitFor({ timeout: 30_000 });
    expect(await page.getByText('Saved to col_summer.').count()).toBe(1);
    const views = world.standIn.views;
    expect(views).toHaveLength(3); // search, update (approval), answer
    expect(sawSearch(views[2]!)).toBe(true);
    const summer = world.emulator.state.collections.get('col_summer');
    expect(JSON.stringify(summer?.clauses)).toMatch(/prod_\w+/);
    expect(errors).toEqual([]);
  });
});
