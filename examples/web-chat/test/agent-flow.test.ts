import { mkdirSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_DIR, PATCH_ROUTE, SECRET_KEY, startTestApp, type TestApp } from './support/app.js';
import { chromiumMissing, launchChromium, type OpenedPage, openPage } from './support/browser.js';
import type { Capture } from './support/capture.js';
import { expectAssetsClean, expectNothingLeaked } from './support/leaks.js';

// Flow 1 in headless Chromium: the built page, the Hono server, the scripted model and the
// emulator over real HTTP. Only the model's choices are scripted.

const missing = chromiumMissing();
const OUTPUT_DIR = new URL('../test-output/', import.meta.url);
const WAIT = { timeout: 60_000 };

let app: TestApp;
let browser: Browser;
const opened: OpenedPage[] = [];

beforeAll(async () => {
  if (missing) return;
  mkdirSync(OUTPUT_DIR, { recursive: true });
  app = await startTestApp();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});
afterEach(async () => {
  // Every page of every test: the key is nowhere the browser could see it.
  for (const page of opened.splice(0)) {
    await expectNothingLeaked(page, SECRET_KEY);
    await page.context.close();
  }
});

async function openAgentChat(url = app.chat.url): Promise<OpenedPage & { chat: Locator }> {
  const page = await openPage(browser, `${url}#agent`);
  opened.push(page);
  return { ...page, chat: page.page.locator('section[aria-label="Find products"]') };
}

async function send(chat: Locator, text: string): Promise<void> {
  await chat.getByLabel('Message').fill(text);
  await chat.getByLabel('Message').press('Enter');
}

/** Waits until the chat is idle again (the stream finished). */
async function settled(chat: Locator): Promise<void> {
  await expect.poll(() => chat.getAttribute('data-status'), WAIT).toBe('ready');
}

/** The UI message stream chunks of every `/api/chat` answer. */
function streamChunks(capture: Capture): Array<Record<string, unknown>> {
  return capture.responsesFrom(/\/api\/chat$/).flatMap((response) =>
    response.body
      .split('\n')
      .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
      .map((line) => JSON.parse(line.slice('data: '.length)) as Record<string, unknown>),
  );
}

/** Every buy link in the tool results the server streamed to the page. */
function toolResultLinks(capture: Capture): string[] {
  return streamChunks(capture)
    .filter((chunk) => chunk.type === 'tool-output-available')
    .flatMap((chunk) => {
      const output = chunk.output as { response?: { products?: Array<{ variants: unknown[] }> } };
      return (output.response?.products ?? []).flatMap((product) =>
        product.variants.map((variant) => (variant as { url?: string }).url ?? ''),
      );
    })
    .filter((url) => url !== '');
}

/** The catalog queries the tool sent, as its results report them (the one with a tier). */
function sentQueries(capture: Capture): unknown[] {
  return streamChunks(capture)
    .filter((chunk) => chunk.type === 'tool-output-available')
    .map((chunk) => chunk.output as { request?: unknown; tier?: unknown })
    .filter((output) => output.tier !== undefined)
    .map((output) => output.request);
}

/** Buy links in the emulator's own answer to a catalog query: the wire, before any parsing. */
async function wireLinks(query: unknown): Promise<string[]> {
  const response = await fetch(`${app.emulator.mcpUrl}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'x-api-key': SECRET_KEY,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'search_catalog', arguments: { meta: null, catalog: query } },
    }),
  });
  const text = await response.text();
  const json = text.startsWith('{') ? text : (text.match(/^data: (.+)$/m)?.[1] ?? '{}');
  const { result } = JSON.parse(json) as {
    result?: { structuredContent?: { products?: Array<{ variants: Array<{ url?: string }> }> } };
  };
  return (result?.structuredContent?.products ?? []).flatMap((product) =>
    product.variants.flatMap((variant) => (variant.url ? [variant.url] : [])),
  );
}

function buyLinks(page: Page): Promise<string[]> {
  return page
    .locator('a.buy')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
}

function summerCollection() {
  const collection = app.emulator.state.collections.get('col_summer');
  if (!collection) throw new Error('the emulator has no col_summer');
  return structuredClone(collection);
}

async function searchThenAskToSave(chat: Locator): Promise<void> {
  await send(chat, 'trail running shoes');
  await expect.poll(() => chat.locator('.product-card').count(), WAIT).toBeGreaterThan(0);
  await settled(chat);
  await send(chat, 'add the first two to my Summer collection');
  await chat.getByRole('button', { name: 'Approve' }).waitFor(WAIT);
  await settled(chat);
}

describe.skipIf(missing)(`flow 1, your own agent${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('streams the answer; every buy link on the page is one of the tool results, byte for byte', async () => {
    const { page, chat, capture } = await openAgentChat();
    await send(chat, 'trail running shoes');
    await expect
      .poll(
        async () => (await chat.locator('.message.assistant .text').last().textContent())?.trim(),
        WAIT,
      )
      .toMatch(/^Here are \d+ matches for “trail running shoes”/);
    await settled(chat);
    // Streamed: the answer came as many text deltas, after the tool result. (The capture
    // records the response a moment after the page shows it: wait for it.)
    await expect
      .poll(async () => {
        await capture.settle();
        return streamChunks(capture).filter((chunk) => chunk.type === 'text-delta').length;
      }, WAIT)
      .toBeGreaterThan(5);
    const links = await buyLinks(page);
    const fromTools = toolResultLinks(capture);
    expect(links.length).toBeGreaterThan(0);
    // One buy link per card in stock (out-of-stock cards have a disabled button instead).
    expect(links.length).toBe(await chat.locator('.product-card[data-in-stock="true"]').count());
    for (const link of links) expect(fromTools).toContain(link);
    // The page receives the one output shape: what was asked, what came back, the tier.
    const outputs = streamChunks(capture)
      .filter((chunk) => chunk.type === 'tool-output-available')
      .map((chunk) => chunk.output as Record<string, unknown>);
    expect(outputs.map((output) => Object.keys(output))).toEqual([['request', 'response', 'tier']]);
    expect(outputs[0]?.request).toMatchObject({ query: 'trail running shoes' });
    // And the tool results carry the service's links as they were on the wire.
    const [query] = sentQueries(capture);
    const fromWire = await wireLinks(query);
    for (const link of links) expect(fromWire).toContain(link);
    // With the key, the service monetizes links: the cards keep them as they came.
    expect(links.every((link) => link.startsWith('https://go.catalogkit.test/r/'))).toBe(true);
    // Commission came with the results, but it is publisher information: shoppers do not see it.
    expect(JSON.stringify(streamChunks(capture))).toContain('"commission":{"percentage"');
    expect(await chat.locator('.commission').count()).toBe(0);
    expect(await chat.textContent()).not.toMatch(/commission/i);
  });

  it('Approve changes the collection in the emulator exactly once', async () => {
    const { page, chat } = await openAgentChat();
    const before = summerCollection();
    const patchesBefore = app.emulator.stats.count(PATCH_ROUTE);
    await searchThenAskToSave(chat);
    // Waiting for the shopper: nothing has been sent to the service yet.
    expect(app.emulator.stats.count(PATCH_ROUTE)).toBe(patchesBefore);
    await page.screenshot({
      path: new URL('agent-approval.png', OUTPUT_DIR).pathname,
      fullPage: true,
    });

    await chat.getByRole('button', { name: 'Approve' }).click();
    await chat.locator('.approval.done').waitFor(WAIT);
    await expect
      .poll(
        async () => (await chat.locator('.message.assistant .text').last().textContent())?.trim(),
        WAIT,
      )
      .toMatch(/^Done: I added prod_\w+ and prod_\w+ to your collection/);
    await settled(chat);
    expect(app.emulator.stats.count(PATCH_ROUTE)).toBe(patchesBefore + 1);
    const after = summerCollection();
    expect(after.clauses.length).toBe(before.clauses.length + 1);
    const added = after.clauses.at(-1);
    expect(added?.product_ids).toHaveLength(2);

    // The next turn replays the history, approval included: the update does not run again.
    await send(chat, 'waterproof hiking jacket');
    await expect
      .poll(
        async () => (await chat.locator('.message.assistant .text').last().textContent())?.trim(),
        WAIT,
      )
      .toMatch(/^Here are \d+ matches for “waterproof hiking jacket”/);
    await settled(chat);
    expect(app.emulator.stats.count(PATCH_ROUTE)).toBe(patchesBefore + 1);
    expect(summerCollection().clauses).toEqual(after.clauses);
    await page.screenshot({ path: new URL('agent-flow.png', OUTPUT_DIR).pathname, fullPage: true });
  });

  it('Deny changes nothing, and the model is told', async () => {
    const { chat } = await openAgentChat();
    const before = summerCollection();
    const patchesBefore = app.emulator.stats.count(PATCH_ROUTE);
    await searchThenAskToSave(chat);
    await chat.getByRole('button', { name: 'Deny' }).click();
    await chat.locator('.approval.denied').waitFor(WAIT);
    // The scripted model answers from the execution-denied result it was given.
    await expect
      .poll(
        async () => (await chat.locator('.message.assistant .text').last().textContent())?.trim(),
        WAIT,
      )
      .toBe('Understood: I left your collection unchanged.');
    await settled(chat);
    expect(app.emulator.stats.count(PATCH_ROUTE)).toBe(patchesBefore);
    expect(summerCollection()).toEqual(before);
  });

  it('says so when the catalog service is down: no blank page, no unhandled rejection', async () => {
    const down = await startTestApp();
    try {
      await down.emulator.close();
      const { page, chat } = await openAgentChat(down.chat.url);
      await send(chat, 'trail running shoes');
      await chat.locator('.tool-error').waitFor(WAIT);
      await expect
        .poll(
          async () => (await chat.locator('.message.assistant .text').last().textContent())?.trim(),
          WAIT,
        )
        .toMatch(/^That did not work: .+ Please try again in a moment\.$/);
      await settled(chat);
      await expect.poll(() => page.locator('.app-header').isVisible()).toBe(true);
      expect(await chat.getByLabel('Message').isEnabled()).toBe(true);

      // The chat server itself gone: the page says so instead of failing silently.
      await down.chat.close();
      await send(chat, 'hiking boots');
      await expect
        .poll(() => chat.getByRole('alert').textContent(), WAIT)
        .toBe('Could not reach the chat server. Check your connection and try again.');
      expect(await chat.locator('.message.user').count()).toBe(2);
      expect(await chat.getByLabel('Message').isEnabled()).toBe(true);
    } finally {
      await down.close();
    }
  });

  it('serves no trace of the key in any asset of the built page', async () => {
    await expectAssetsClean(PAGE_DIR, app.chat.url, SECRET_KEY);
  });
});
