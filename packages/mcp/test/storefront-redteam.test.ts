// The storefront red team's findings S1–S7 (wave 4b, issue 35 item 5), each reproduced through
// the real handler (a hostile catalog on loopback → createCatalogMcpHandler → MCP client) and,
// where the page matters, rendered in Chromium. docs/SECURITY.md cites these tests.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CATALOG_VARIANTS_MAX } from '@catalogkit/core/schemas';
import { defineCatalogTool } from '@catalogkit/core/tools';
import { collectBuyLinks } from '@catalogkit/links';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { createCatalogMcpHandler } from '../src/index.js';
import { launch, showApp } from './support/app-host.js';
import { connectHttpClient, mountInHono } from './support/http-host.js';
import { textOf } from './support/inputs.js';
import { searchThrough } from './support/raw-catalog.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const USD = { amount: 4200, currency: 'USD' };
const variant = (id: string, url: unknown, extra: Record<string, unknown> = {}) => ({
  id,
  title: id,
  price: USD,
  url,
  ...extra,
});
const product = (id: string, variants: unknown[], extra: Record<string, unknown> = {}) => ({
  id,
  title: `Product ${id}`,
  variants,
  ...extra,
});
const resultOf = (products: unknown[]) => ({
  content: [{ type: 'text' as const, text: '' }],
  structuredContent: { request: { query: 'shoes' }, response: { products } },
});

/**
 * A hand-rolled host (the MCP Apps messages, no AppBridge) so the iframe's sandbox is the one
 * a host chooses: it grants openLinks, records ui/open-link and every tab the browser opens.
 */
async function handHost(html: string, result: unknown, sandbox: string) {
  const page = await browser.newPage();
  const tabs: string[] = [];
  page.context().on('page', (tab) => tabs.push(`tab opened: ${tab.url()}`));
  await page.route('**/*', (route) =>
    route.request().url() === 'http://host.test/'
      ? route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html>' })
      : route.abort(),
  );
  await page.goto('http://host.test/');
  await page.evaluate(
    ({ html, result, sandbox }) => {
      const w = window as unknown as { opened: string[] };
      w.opened = [];
      const iframe = document.createElement('iframe');
      iframe.setAttribute('sandbox', sandbox);
      const post = (message: object) =>
        iframe.contentWindow?.postMessage({ jsonrpc: '2.0', ...message }, '*');
      window.addEventListener('message', (event) => {
        if (event.source !== iframe.contentWindow) return;
        const m = event.data;
        if (m.method === 'ui/initialize') {
          post({
            id: m.id,
            result: {
              protocolVersion: '2026-01-26',
              hostInfo: { name: 'h', version: '1' },
              hostCapabilities: { openLinks: {} },
              hostContext: {},
            },
          });
        } else if (m.method === 'ui/notifications/initialized') {
          post({ method: 'ui/notifications/tool-result', params: result });
        } else if (m.method === 'ui/open-link') {
          w.opened.push(m.params.url);
          post({ id: m.id, result: {} });
        }
      });
      iframe.srcdoc = html;
      document.body.append(iframe);
    },
    { html, result, sandbox },
  );
  return {
    page,
    view: page.frameLocator('iframe'),
    tabs,
    opened: () => page.evaluate(() => (window as unknown as { opened: string[] }).opened),
  };
}

describe('storefront red team (S1–S7)', () => {
  // S1: a real <a href> let a middle click, a modified click or the context menu open the
  // browser-normalised URL in a tab, past the host's ui/open-link (its confirmation, its
  // policy, the byte-exact URL). Now no URL is in the page when the host can open links.
  for (const sandbox of ['allow-scripts', 'allow-scripts allow-popups']) {
    it(`S1: every way to follow Buy goes through ui/open-link, byte for byte (sandbox "${sandbox}")`, async () => {
      const hits: string[] = [];
      const shop = createServer((request, response) => {
        hits.push(request.url ?? '');
        response.end('shop');
      });
      await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
      const { port } = shop.address() as AddressInfo;
      const link = `http://LOCALHOST:${port}/Buy/Caf%C3%A9?ref=a b`;
      const { html } = await searchThrough('[]');
      const host = await handHost(html, resultOf([product('p', [variant('v', link)])]), sandbox);
      try {
        const buy = host.view.locator('.buy');
        await buy.waitFor();
        expect(await buy.evaluate((node) => node.localName)).toBe('button');
        expect(await host.view.locator('[href]').count()).toBe(0);
        await buy.click();
        await buy.click({ modifiers: ['ControlOrMeta'] });
        await buy.click({ modifiers: ['Shift'] });
        await buy.click({ button: 'middle' });
        await buy.click({ button: 'right' });
        await expect.poll(host.opened).toEqual([link, link, link]);
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(hits).toEqual([]);
        expect(host.tabs).toEqual([]);
      } finally {
        await host.page.close();
        await new Promise((resolve) => shop.close(resolve));
      }
    });
  }

  it('S1: a host without openLinks gets a plain <a href> with the catalog string (the control)', async () => {
    const link = 'https://shop.example/buy?ref=a b';
    const { html, input } = await searchThrough('[]');
    const shown = await showApp(
      browser,
      html,
      input,
      resultOf([product('p', [variant('v', link)])]) as never,
      { openLinks: false },
    );
    try {
      await shown.view.locator('a.buy').waitFor();
      expect(await shown.view.locator('a.buy').getAttribute('href')).toBe(link);
      expect(await shown.view.locator('button').count()).toBe(0);
    } finally {
      await shown.page.close();
    }
  });

  // S2: 10 000 products to a `limit: 3` search (and 30 000 variants on one) were served as-is
  // (1 MB of model text) and drawn as 130 000 elements, freezing the host page for seconds.
  it('S2: the answer is bounded where core parses it: limit products, CATALOG_VARIANTS_MAX variants each', async () => {
    const variants = Array.from({ length: 30_000 }, (_, index) =>
      variant(`v${index}`, `https://shop.example/${index}`),
    );
    const products = Array.from({ length: 10_000 }, (_, index) =>
      product(`p${index}`, index === 0 ? variants : variants.slice(0, 2)),
    );
    const { html, input, result } = await searchThrough(JSON.stringify(products));
    expect(result.isError).toBeFalsy();
    const response = (result.structuredContent as { response: { products: unknown[] } }).response;
    expect(response.products).toHaveLength(3);
    expect((response.products[0] as { variants: unknown[] }).variants).toHaveLength(
      CATALOG_VARIANTS_MAX,
    );
    expect(JSON.stringify(result).length).toBeLessThan(60_000);
    expect(textOf(result).length).toBeLessThan(20_000);
    const shown = await showApp(browser, html, input, result);
    try {
      await shown.view.locator('article.card').first().waitFor();
      expect(await shown.view.locator('article.card').count()).toBe(3);
      expect(await shown.view.locator('.offer').count()).toBe(CATALOG_VARIANTS_MAX + 4);
    } finally {
      await shown.page.close();
    }
  });

  // S3: a field nested 100 000 deep passed core's parse, the SDK's JSON.stringify threw where
  // nothing answered, and the client waited out its 60 s timeout.
  it('S3: a deep answer is refused at the parse and answered at once as an error', async () => {
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const started = performance.now();
    const { result } = await searchThrough(
      `[{"id":"p","title":"Deep","variants":[],"metadata":${deep}}]`,
    );
    expect(result.isError).toBe(true);
    // The model's text for any ProtocolError (core's own test names the depth).
    expect(textOf(result)).toMatch(/sent an answer that could not be read/);
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('S3: a result the server cannot serialise is an error answer, never no answer', async () => {
    const unserialisable = defineCatalogTool({
      name: 'big_number',
      description: () => 'Returns a BigInt, which JSON cannot carry.',
      inputSchema: z.strictObject({}),
      mutates: false,
      execute: async () => ({ request: {}, response: { n: 10n ** 30n } }),
      toModelOutput: () => 'a big number',
    });
    const mounted = await mountInHono(
      createCatalogMcpHandler({
        clientOptions: { apiKey: 'ck_test_0123456789abcdef0123', mcpUrl: 'http://127.0.0.1:1/' },
        tools: [unserialisable],
        include: ['big_number'],
      }),
    );
    const { client } = await connectHttpClient(mounted.url);
    try {
      const result = (await client.callTool({ name: 'big_number', arguments: {} }, undefined, {
        timeout: 5_000,
      })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe("big_number: the tool's result could not be serialised as JSON");
    } finally {
      await client.close();
      await mounted.close();
    }
  });

  // S4: the status line printed `request.query`, the model's own tool input, in the page.
  it("S4: the page shows nothing the model wrote (the tool's input)", async () => {
    const phish = 'shoes. Your card was declined: call +1-800-555-0199 or visit secure-pay.example';
    const { html, input, result } = await searchThrough(
      JSON.stringify([product('p', [variant('v', 'https://real.example/buy')])]),
      phish,
    );
    expect(JSON.stringify(result.structuredContent)).toContain('secure-pay.example');
    const shown = await showApp(browser, html, input, result);
    try {
      await shown.view.locator('article.card').first().waitFor();
      expect(await shown.view.locator('#status').textContent()).toBe('1 product');
      expect(await shown.view.locator('body').textContent()).not.toContain('secure-pay');
    } finally {
      await shown.page.close();
    }
  });

  // S5/S6: two formatters disagreed (DOLLAR 2.50 vs 250), and both divided by CLDR's display
  // digits (HUF 199 900 read 199,900; IQD 10 000 000 read 10,000,000). One formatter now.
  it('S5/S6: each card shows the price the model is told, by ISO 4217 minor units', async () => {
    const prices = [
      { amount: 199_900, currency: 'HUF' },
      { amount: 150_000, currency: 'JPY' },
      { amount: 10_000_000, currency: 'IQD' },
      { amount: 4_299, currency: 'USD' },
      { amount: 250, currency: 'DOLLAR' },
    ];
    const { html, input, result } = await searchThrough(
      JSON.stringify([
        product(
          'p',
          prices.map((price, index) =>
            variant(`v${index}`, `https://real.example/${index}`, { price }),
          ),
        ),
      ]),
    );
    const shown = await showApp(browser, html, input, result);
    try {
      await shown.view.locator('article.card').first().waitFor();
      const cards = await shown.view.locator('.price').allTextContents();
      expect(cards).toEqual([
        'HUF\u00a01,999.00',
        '¥150,000',
        'IQD\u00a010,000.000',
        '$42.99',
        '2.50 DOLLAR',
      ]);
      for (const card of cards) expect(textOf(result)).toContain(card);
    } finally {
      await shown.page.close();
    }
  });

  // S7: the view filtered variants to records and then fell back to the product's URL, while
  // collectBuyLinks did not: two copies of one rule. Both now run productOffers.
  it('S7: the cards and collectBuyLinks agree (variants that are no records, and a product url)', async () => {
    const output = {
      request: { query: 'q' },
      response: {
        products: [
          { id: 'p', title: 'P', url: 'https://fallback.example/p', variants: [null, 1, 'x'] },
          { id: 'q', title: 'Q', url: 'https://fallback.example/q', variants: [] },
          { id: 'r', title: 'R', variants: [null, { url: 'https://shop.example/r' }, 'x'] },
        ],
      },
    };
    const { html, input } = await searchThrough('[]');
    const shown = await showApp(browser, html, input, {
      content: [],
      structuredContent: output,
    } as never);
    try {
      await shown.view.locator('article.card').first().waitFor();
      const buttons = shown.view.locator('button.buy');
      const count = await buttons.count();
      for (let index = 0; index < count; index += 1) await buttons.nth(index).click();
      const expected = collectBuyLinks([{ toolName: 'search_catalog', output }]);
      expect(expected).toEqual(['https://fallback.example/q', 'https://shop.example/r']);
      await expect.poll(() => shown.opened()).toEqual(expected);
    } finally {
      await shown.page.close();
    }
  });
});
