import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { SearchCatalogOutput } from '@catalogkit/core';
import { commissionPercentage } from '@catalogkit/core/schemas';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { collectBuyLinks } from '@catalogkit/links';
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttpTransport,
} from '@modelcontextprotocol/client';
import {
  getToolUiResourceUri,
  RESOURCE_MIME_TYPE,
  RESOURCE_URI_META_KEY,
} from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogMcpHandlerOptions, createCatalogMcpHandler } from '../src/index.js';
import {
  STOREFRONT_MIME_TYPE,
  STOREFRONT_URI,
  type Storefront,
  type StorefrontOptions,
} from '../src/storefront.js';
import { launch, type ShownApp, showApp } from './support/app-host.js';
import { startBin } from './support/bin.js';
import {
  DATA_LINK,
  HOSTILE_SELLER,
  HOSTILE_TITLE,
  ODD_WEB_LINK,
  SCRIPT_LINK,
  startHostileCatalog,
} from './support/hostile-catalog.js';
import { connectHttpClient, mountInHono } from './support/http-host.js';
import { searchCatalog, textOf } from './support/inputs.js';

let emulator: RunningEmulator;
let browser: Browser;

beforeAll(async () => {
  [emulator, browser] = await Promise.all([startEmulator({ port: 0 }), launch()]);
});

afterAll(async () => {
  await Promise.all([browser?.close(), emulator?.close()]);
});

/** The storefront's budget, gzip -9 bytes as served, kept with every other size budget. */
const STOREFRONT_GZIP_BUDGET: number = (() => {
  const file = new URL('../../release-rehearsal/size-budget.json', import.meta.url);
  const budgets = JSON.parse(readFileSync(file, 'utf8')) as {
    mcpApps: Record<string, { budget: number }>;
  };
  const entry = Object.entries(budgets.mcpApps).find(([name]) => name.includes(STOREFRONT_URI));
  if (!entry) throw new Error(`size-budget.json has no mcpApps entry for ${STOREFRONT_URI}`);
  return entry[1].budget;
})();

const QUERY = 'trail running shoes';

function handlerOptions(overrides: Partial<CatalogMcpHandlerOptions> = {}) {
  return {
    clientOptions: {
      apiKey: emulator.keys.valid,
      baseUrl: emulator.baseUrl,
      mcpUrl: emulator.mcpUrl,
    },
    defaults: { placements: ['affiliate'] },
    ...overrides,
  };
}

/**
 * What an MCP Apps host does with a server, over HTTP on 2026-07-28 (the 2.x client): lists
 * the tools, finds the search tool's UI resource with ext-apps' own helper, reads it, and
 * calls the tool.
 */
async function hostSearch(options: CatalogMcpHandlerOptions) {
  const mounted = await mountInHono(createCatalogMcpHandler(options));
  const client = new ModernClient(
    { name: 'catalogkit-test-host', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  try {
    await client.connect(new ModernHttpTransport(mounted.url));
    const { tools } = await client.listTools();
    const tool = tools.find((candidate) => candidate.name === 'search_catalog');
    const uri = tool ? getToolUiResourceUri(tool) : undefined;
    if (!uri) throw new Error('search_catalog has no UI resource');
    const { contents } = await client.readResource({ uri });
    const html = contents[0] && 'text' in contents[0] ? contents[0].text : '';
    const input = searchCatalog(QUERY, { limit: 3 });
    const result = (await client.callTool({
      name: 'search_catalog',
      arguments: input,
    })) as CallToolResult;
    return { tools, uri, contents, html, input, result };
  } finally {
    await client.close();
    await mounted.close();
  }
}

function outputOf(result: CallToolResult): SearchCatalogOutput {
  return result.structuredContent as unknown as SearchCatalogOutput;
}

async function rendered(shown: ShownApp) {
  await shown.view.locator('article.card').first().waitFor();
  return {
    titles: await shown.view.locator('.card .title').allTextContents(),
    commissions: await shown.view.locator('.commission').allTextContents(),
    // With a host that opens links, no URL is in the page (S1): Buy is a button.
    urls: await shown.view.locator('[href], [src]').count(),
  };
}

/** Clicks every Buy button in order: the links the host was asked to open, as received. */
async function openEach(shown: ShownApp): Promise<string[]> {
  const buttons = shown.view.locator('button.buy');
  const count = await buttons.count();
  const before = (await shown.opened()).length;
  for (let index = 0; index < count; index += 1) await buttons.nth(index).click();
  await expect.poll(async () => (await shown.opened()).length).toBe(before + count);
  return (await shown.opened()).slice(before);
}

describe('the storefront (MCP App) of search_catalog', () => {
  it('links the ui:// resource from the tool as ext-apps says, and serves it on both revisions', async () => {
    const { tools, uri, contents, html } = await hostSearch(handlerOptions());
    expect(uri).toBe(STOREFRONT_URI);
    expect(STOREFRONT_MIME_TYPE).toBe(RESOURCE_MIME_TYPE);
    const search = tools.find((tool) => tool.name === 'search_catalog');
    expect(search?._meta).toEqual({
      ui: { resourceUri: STOREFRONT_URI },
      [RESOURCE_URI_META_KEY]: STOREFRONT_URI,
    });
    // Only the search shows cards: the other tools carry no UI.
    for (const tool of tools.filter((candidate) => candidate.name !== 'search_catalog')) {
      expect(tool._meta).toBeUndefined();
    }
    expect(contents).toEqual([
      {
        uri: STOREFRONT_URI,
        mimeType: RESOURCE_MIME_TYPE,
        text: html,
        _meta: { ui: { prefersBorder: true } },
      },
    ]);
    // No inline event handler and nothing loaded from anywhere: CSP friendly, no domains.
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    expect(html).not.toMatch(/\s(src|href)\s*=/i);
    expect(html).not.toContain('innerHTML');

    // The 2025-11-25 leg (the 1.x SDK client, stateless HTTP) lists and serves the same.
    const mounted = await mountInHono(createCatalogMcpHandler(handlerOptions()));
    const { client } = await connectHttpClient(mounted.url);
    try {
      const legacyTools = await client.listTools();
      const legacySearch = legacyTools.tools.find((tool) => tool.name === 'search_catalog');
      expect(legacySearch?._meta).toEqual(search?._meta);
      const { resources } = await client.listResources();
      expect(resources).toEqual([
        expect.objectContaining({ uri: STOREFRONT_URI, mimeType: RESOURCE_MIME_TYPE }),
      ]);
      const read = await client.readResource({ uri: STOREFRONT_URI });
      expect(read.contents).toEqual(contents);
      await expect(client.readResource({ uri: 'ui://catalogkit/other.html' })).rejects.toThrow(
        /Resource not found/,
      );
    } finally {
      await client.close();
      await mounted.close();
    }
  });

  it('stays within its size budget (gzip -9, as served)', async () => {
    const { html } = await hostSearch(handlerOptions());
    const gzipped = gzipSync(html, { level: 9 }).byteLength;
    expect(gzipped).toBeGreaterThan(1000);
    expect(gzipped).toBeLessThanOrEqual(STOREFRONT_GZIP_BUDGET);
  });

  it('renders an emulator search as cards through the ext-apps host (AppBridge); a click opens the exact buy link', async () => {
    const { html, input, result } = await hostSearch(handlerOptions());
    const output = outputOf(result);
    const shown = await showApp(browser, html, input, result);
    try {
      const { titles, commissions, urls } = await rendered(shown);
      expect(titles).toEqual(output.response.products.map((product) => product.title));
      expect(urls).toBe(0);

      // The commission is in the result (asked with the valid key) but not on the cards.
      const rates = output.response.products.flatMap((product) =>
        product.variants.map((variant) => commissionPercentage(variant.placement)),
      );
      expect(rates.filter((rate) => rate !== undefined).length).toBeGreaterThan(0);
      expect(commissions).toEqual([]);
      expect(await shown.view.locator('#cards').textContent()).not.toMatch(/commission/i);

      // The Buy buttons open exactly the catalog's buy links, by the links package's rule.
      const buyLinks = collectBuyLinks([{ toolName: 'search_catalog', output }]);
      expect(buyLinks.length).toBeGreaterThan(1);
      expect(await openEach(shown)).toEqual(buyLinks);
      expect(shown.navigations).toEqual([]);
      expect(shown.requests).toEqual([]);
      expect(shown.dialogs).toEqual([]);
      // The host was told the cards' height, to size the frame to them.
      const sizes = await shown.page.evaluate(() => window.host.sizes);
      expect(sizes.at(-1)).toBeGreaterThan(100);
    } finally {
      await shown.page.close();
    }
  });

  it('shows the commission when the operator opts in (storefront.showCommission)', async () => {
    const { html, input, result } = await hostSearch(
      handlerOptions({ storefront: { showCommission: true } }),
    );
    const expected = outputOf(result).response.products.flatMap((product) =>
      product.variants.flatMap((variant) => {
        const rate = commissionPercentage(variant.placement);
        return rate === undefined ? [] : [`${rate}% commission`];
      }),
    );
    expect(expected.length).toBeGreaterThan(0);
    const shown = await showApp(browser, html, input, result);
    try {
      expect((await rendered(shown)).commissions).toEqual(expected);
    } finally {
      await shown.page.close();
    }
  });

  it('renders a hostile catalog inert: markup as text, only http(s) links clickable and handed over unchanged', async () => {
    const hostile = await startHostileCatalog();
    try {
      const { html, input, result } = await hostSearch({
        clientOptions: { apiKey: emulator.keys.valid, mcpUrl: hostile.mcpUrl },
        include: ['search_catalog'],
      });
      const shown = await showApp(browser, html, input, result);
      try {
        const { titles, urls } = await rendered(shown);
        expect(titles).toEqual([HOSTILE_TITLE, '<svg onload="alert(1)">']);
        expect(urls).toBe(0);
        expect(await shown.view.locator('.seller').allTextContents()).toEqual([HOSTILE_SELLER]);
        // Nothing the catalog wrote became an element: only the page's own.
        const tags = await shown.view
          .locator('body *')
          .evaluateAll((nodes) => [...new Set(nodes.map((node) => node.localName))].sort());
        expect(tags).toEqual([
          'article',
          'button',
          'h2',
          'li',
          'main',
          'p',
          'script',
          'span',
          'ul',
        ]);
        expect(await shown.view.locator('script').count()).toBe(1);
        expect(await shown.view.locator('.no-link').count()).toBe(3);

        const opened = await openEach(shown);
        expect(opened).toEqual([ODD_WEB_LINK]);
        expect(await shown.page.title()).toBe('host');
        expect(shown.dialogs).toEqual([]);
        expect(shown.requests).toEqual([]);
        expect(shown.navigations).toEqual([]);
        // The links package agrees: neither the script nor the data URL is a buy link.
        const output = outputOf(result);
        expect(collectBuyLinks([{ toolName: 'search_catalog', output }])).toEqual([ODD_WEB_LINK]);
        expect([SCRIPT_LINK, DATA_LINK]).not.toContain(opened[0]);
      } finally {
        await shown.page.close();
      }
    } finally {
      await hostile.close();
    }
  });

  it('hosts without MCP Apps still get the compact text and the structuredContent', async () => {
    const mounted = await mountInHono(createCatalogMcpHandler(handlerOptions()));
    // The 1.x SDK client declares no UI extension and never reads the resource.
    const { client } = await connectHttpClient(mounted.url);
    try {
      const result = await client.callTool({
        name: 'search_catalog',
        arguments: searchCatalog(QUERY, { limit: 3 }),
      });
      const text = textOf(result);
      expect(text).toMatch(new RegExp(`^\\d+ of \\d+ products for "${QUERY}"\\.`));
      expect(text).toMatch(/\[\[buy:\d{9}\]\]/);
      const output = result.structuredContent as unknown as SearchCatalogOutput;
      expect(Object.keys(output).sort()).toEqual(['request', 'response', 'tier']);
      expect(output.response.products.length).toBe(3);
      expect(result._meta).toBeUndefined();
    } finally {
      await client.close();
      await mounted.close();
    }
  });

  it('the CLI hides the commission unless run with --show-commission (stdio)', async () => {
    const configOf = async (args: string[]) => {
      const { client } = await startBin({ CATALOG_MCP_URL: emulator.mcpUrl }, { args });
      try {
        const { contents } = await client.readResource({ uri: STOREFRONT_URI });
        const html = contents[0] && 'text' in contents[0] ? contents[0].text : '';
        // The operator's config is the view's first argument (flat JSON, no nested braces).
        return /\}\)\((\{[^{}<]*\}),/.exec(html)?.[1];
      } finally {
        await client.close();
      }
    };
    const [hidden, shown] = await Promise.all([
      configOf(['--include', 'search_catalog']),
      configOf(['--include', 'search_catalog', '--show-commission']),
    ]);
    expect(JSON.parse(hidden ?? '{}')).toMatchObject({ showCommission: false });
    expect(JSON.parse(shown ?? '{}')).toMatchObject({ showCommission: true });
  });

  it('survives minification: the page a minifying bundler ships (Workers, Next.js) still renders', async () => {
    // The view is sent as its own source text, so a bundler that minifies this package
    // rewrites the page too: build it as one would and render that.
    const bundled = await build({
      entryPoints: [new URL('../src/storefront.ts', import.meta.url).pathname],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'neutral',
      target: 'es2022',
      conditions: ['@catalogkit/source'],
      write: false,
      logLevel: 'silent',
    });
    const folder = mkdtempSync(join(tmpdir(), 'storefront-'));
    let storefrontOf: (options: StorefrontOptions, version: string) => Storefront;
    try {
      const file = join(folder, 'storefront.mjs');
      writeFileSync(file, bundled.outputFiles[0]?.text ?? '');
      ({ storefrontOf } = await import(pathToFileURL(file).href));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    const { html: served, input, result } = await hostSearch(handlerOptions());
    const { html } = storefrontOf({}, '0.0.0');
    expect(html.length).toBeLessThan(served.length);
    const shown = await showApp(browser, html, input, result);
    try {
      await rendered(shown);
      expect(await openEach(shown)).toEqual(
        collectBuyLinks([{ toolName: 'search_catalog', output: outputOf(result) }]),
      );
    } finally {
      await shown.page.close();
    }
  });

  it('is not offered when search_catalog is not served', async () => {
    const mounted = await mountInHono(
      createCatalogMcpHandler(handlerOptions({ include: ['search_websites'] })),
    );
    const { client } = await connectHttpClient(mounted.url);
    try {
      expect(client.getServerCapabilities()).toEqual({ tools: {} });
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool._meta)).toEqual([undefined]);
    } finally {
      await client.close();
      await mounted.close();
    }
  });

  it('refuses a storefront option that is not one, naming the field', () => {
    const options = {
      storefront: { showCommission: 'yes' },
    } as unknown as CatalogMcpHandlerOptions;
    expect(() => createCatalogMcpHandler(options)).toThrowError(
      /storefront\.showCommission must be a boolean/,
    );
  });
});
