import { CatalogClient } from '@catalogkit/core';
import { createCatalogToolList } from '@catalogkit/core/tools';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { buyLinkReference, collectBuyLinks, finalizeBuyLinks } from '@catalogkit/links';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { openAiStrictProblems } from '../../testing/src/stand-ins/schema-rules.js';

let emulator: RunningEmulator;
afterEach(() => emulator.close());

async function discovered(options: Parameters<typeof startEmulator>[0] = {}) {
  emulator = await startEmulator(options);
  const client = new CatalogClient({
    apiKey: emulator.keys.valid,
    baseUrl: emulator.baseUrl,
    mcpUrl: emulator.mcpUrl,
  });
  return { client, serviceTools: await client.catalog.tools() };
}

const TODAY = ['search_catalog', 'search_websites', 'update_collection'];
const LOOKUPS = ['lookup_catalog', 'get_product'];
const names = (tools: { name: string }[]) => tools.map((tool) => tool.name);

describe('lookup tools in the tool list', () => {
  it('join the tool set only when the service lists them; otherwise it is exactly today’s', async () => {
    const { client, serviceTools } = await discovered();
    expect(names(createCatalogToolList({ client }))).toEqual(TODAY);
    expect(names(createCatalogToolList({ client, serviceTools }))).toEqual([
      'search_catalog',
      'search_websites',
      'update_collection',
      'lookup_catalog',
      'get_product',
    ]);
    await emulator.close();
    const off = await discovered({ lookupTools: false });
    const fallback = createCatalogToolList({ client: off.client, serviceTools: off.serviceTools });
    expect(names(fallback)).toEqual(TODAY);
    expect(fallback.map((tool) => tool.description)).toEqual(
      createCatalogToolList({ client: off.client }).map((tool) => tool.description),
    );
  });

  it('have input schemas that pass OpenAI strict mode', async () => {
    const { client, serviceTools } = await discovered();
    const tools = createCatalogToolList({ client, serviceTools, include: LOOKUPS });
    expect(names(tools)).toEqual(LOOKUPS);
    for (const tool of tools) {
      expect(openAiStrictProblems(z.toJSONSchema(tool.inputSchema, { io: 'input' }))).toEqual([]);
    }
  });

  it('follow include, exclude and rename like the other built-ins', async () => {
    const { client, serviceTools } = await discovered();
    const tools = createCatalogToolList({
      client,
      serviceTools,
      exclude: ['lookup_catalog'],
      rename: (name) => `shop_${name}`,
    });
    expect(names(tools)).toEqual([
      'shop_search_catalog',
      'shop_search_websites',
      'shop_update_collection',
      'shop_get_product',
    ]);
    expect(() => createCatalogToolList({ client, include: ['get_product'] })).toThrow(
      /include\.0: must be one of/,
    );
  });
});

describe('lookup_catalog and get_product tools against the emulator', () => {
  it('lookup by product id and URL: references in the view, links resolve and verify', async () => {
    const { client, serviceTools } = await discovered();
    const tool = createCatalogToolList({ client, serviceTools, include: ['lookup_catalog'] })[0];
    if (tool?.originalName !== 'lookup_catalog') throw new Error('lookup_catalog missing');
    const [first, second] = emulator.data.products;
    const output = await tool.execute({
      product_ids: [first?.id ?? '', 'prod_missing'],
      urls: [second?.variants[0]?.url ?? ''],
    });
    expect(output.request).toEqual({
      ids: [first?.id, 'prod_missing'],
      urls: [second?.variants[0]?.url],
    });
    expect(output.tier).toBe('token');
    const view = tool.toModelOutput(output);
    const links = output.response.products.flatMap((p) => p.variants.map((v) => v.url ?? ''));
    expect(links).toHaveLength((first?.variants.length ?? 0) + 1);
    for (const link of links) {
      expect(view).not.toContain(link);
      expect(view).toContain(buyLinkReference(link));
    }
    expect(view).toContain('info not_found: prod_missing');
    const sources = [{ toolName: 'lookup_catalog', output }];
    expect(collectBuyLinks(sources)).toEqual(links);
    const answer = links.map((link) => `- ${buyLinkReference(link)}`).join('\n');
    const final = finalizeBuyLinks(answer, sources);
    expect(final.ok).toBe(true);
    expect(final.text).toBe(links.map((link) => `- ${link}`).join('\n'));
  });

  it('get_product narrows to the chosen option, and its links verify like search results', async () => {
    const { client, serviceTools } = await discovered();
    const tool = createCatalogToolList({ client, serviceTools, include: ['get_product'] })[0];
    if (tool?.originalName !== 'get_product') throw new Error('get_product missing');
    const product = emulator.data.products.find(
      (p) => new Set(p.variants.map((v) => v.options[0]?.label)).size >= 2,
    );
    const colour = product?.variants[0]?.options[0]?.label ?? '';
    const output = await tool.execute({
      product_id: product?.id ?? '',
      selected: [{ name: 'Color', label: colour }],
      preferences: null,
    });
    const offers = output.response.product?.variants ?? [];
    expect(offers.length).toBeGreaterThan(0);
    expect(offers.length).toBeLessThan(product?.variants.length ?? 0);
    const view = tool.toModelOutput(output);
    expect(view).toContain(`Product ${product?.id} (selected: Color ${colour}):`);
    expect(view).toMatch(/^Color: /m);
    const link = offers[0]?.url ?? '';
    expect(view).toContain(buyLinkReference(link));
    expect(view).not.toContain(link);
    const final = finalizeBuyLinks(`[Buy](${buyLinkReference(link)})`, [
      { toolName: 'get_product', output },
    ]);
    expect(final).toMatchObject({ ok: true, text: `[Buy](${link})` });
    const missing = await tool.execute({
      product_id: 'prod_nope',
      selected: null,
      preferences: null,
    });
    expect(tool.toModelOutput(missing)).toMatch(/^No product prod_nope\.\nerror not_found:/);
  });

  it('bad model input is refused with the field named in the model’s terms', async () => {
    const { client, serviceTools } = await discovered();
    const tool = createCatalogToolList({ client, serviceTools, include: ['lookup_catalog'] })[0];
    const failure = await tool
      ?.execute({ product_ids: null, urls: ['ftp://x.example/p'] } as never)
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(tool?.errorToModelOutput(failure)).toMatch(/urls/);
    const empty = await tool?.execute({ product_ids: null, urls: null } as never).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(tool?.errorToModelOutput(empty)).toMatch(/at least one/);
    expect(emulator.stats.snapshot()['POST /mcp tools/call']).toBeUndefined();
  });
});
