import { CatalogClient, type CatalogClientOptions, RequestValidationError } from '@catalogkit/core';
import { McpError } from '@catalogkit/core/errors';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { afterEach, describe, expect, it } from 'vitest';

let emulator: RunningEmulator;
afterEach(() => emulator.close());

const CALL_ROUTE = 'POST /mcp tools/call';
const LIST_ROUTE = 'POST /mcp tools/list';

async function setUp(
  emulatorOptions: Parameters<typeof startEmulator>[0] = {},
  clientOptions: CatalogClientOptions = {},
) {
  emulator = await startEmulator(emulatorOptions);
  return new CatalogClient({
    apiKey: emulator.keys.valid,
    mcpUrl: emulator.mcpUrl,
    ...clientOptions,
  });
}

const anonymous = () => new CatalogClient({ mcpUrl: emulator.mcpUrl, apiKey: undefined });

/** A product with at least two offers of different colours, from the emulator's data. */
function productWithChoices() {
  const product = emulator.data.products.find(
    (p) => new Set(p.variants.map((v) => v.options[0]?.label)).size >= 2,
  );
  if (!product) throw new Error('the seed has no product with two colours');
  return product;
}

describe('catalog.tools: discovery through tools/list', () => {
  it('lists the three tools, reads tools/list once per client, and again on refresh', async () => {
    const client = await setUp();
    expect(await client.catalog.tools()).toEqual([
      'search_catalog',
      'lookup_catalog',
      'get_product',
    ]);
    await client.catalog.tools();
    expect(emulator.stats.snapshot()[LIST_ROUTE]).toBe(1);
    await client.catalog.tools({ refresh: true });
    expect(emulator.stats.snapshot()[LIST_ROUTE]).toBe(2);
  });

  it('with the tools off, only search is listed and the typed calls send nothing', async () => {
    const client = await setUp({ lookupTools: false });
    expect(await client.catalog.tools()).toEqual(['search_catalog']);
    const lookup = client.catalog.lookup({ ids: ['anything'] });
    await expect(lookup).rejects.toBeInstanceOf(McpError);
    await expect(lookup).rejects.toMatchObject({ rpcCode: -32601 });
    await expect(client.catalog.getProduct({ id: 'anything' })).rejects.toThrow(
      /get_product is not offered/,
    );
    expect(emulator.stats.snapshot()[CALL_ROUTE]).toBeUndefined();
    expect(
      (await client.catalog.search({ query: 'shoes' })).result.products.length,
    ).toBeGreaterThan(0);
  });

  it('a failed discovery is not cached: the next call reads tools/list again', async () => {
    const client = await setUp({}, { maxRetries: 0 });
    emulator.faults.set({ routes: [LIST_ROUTE], status: 503, times: 1 });
    await expect(client.catalog.tools()).rejects.toThrow();
    expect(await client.catalog.tools()).toContain('get_product');
  });
});

describe.each(['sse', 'json'] as const)(
  'catalog.lookup against the emulator (%s)',
  (mcpResponse) => {
    it('by product id, offer id and retailer URL; unknown ones as not_found messages', async () => {
      const client = await setUp({ mcpResponse });
      const [first, second, third] = emulator.data.products;
      const offer = second?.variants[0];
      const page = third?.variants[0]?.url.split('?')[0];
      const { result, tier } = await client.catalog.lookup({
        ids: [first?.id ?? '', offer?.id ?? '', 'prod_does_not_exist', first?.id ?? ''],
        urls: [`${page}?utm_source=pasted`, 'https://nowhere.example/products/none'],
      });
      expect(tier).toBe('token');
      expect(result.products.map((p) => p.id)).toEqual([first?.id, second?.id, third?.id]);
      expect(result.products[0]?.variants).toHaveLength(first?.variants.length ?? 0);
      expect(result.products[1]?.variants.map((v) => v.id)).toEqual([offer?.id]);
      expect(result.products[1]?.variants[0]?.inputs).toEqual([{ id: offer?.id, match: 'exact' }]);
      expect(result.messages).toEqual([
        { type: 'info', code: 'not_found', content: 'prod_does_not_exist' },
        { type: 'info', code: 'not_found', content: 'https://nowhere.example/products/none' },
      ]);
      // Token tier: monetized links, byte for byte as the emulator builds them.
      expect(result.products[1]?.variants[0]?.url).toMatch(/^https:\/\/go\.catalogkit\.test\/r\//);
    });

    it('anonymous: the retailer links themselves, tier anonymous', async () => {
      await setUp({ mcpResponse });
      const product = emulator.data.products[5];
      const { result, tier } = await anonymous().catalog.lookup({ ids: [product?.id ?? ''] });
      expect(tier).toBe('anonymous');
      expect(result.products[0]?.variants.map((v) => v.url)).toEqual(
        product?.variants.map((v) => v.url),
      );
    });

    it('retries a 503 like search does', async () => {
      const client = await setUp({
        mcpResponse,
        faults: { routes: [CALL_ROUTE], status: 503, retryAfterSeconds: 0, times: 1 },
      });
      const id = emulator.data.products[0]?.id ?? '';
      const { result } = await client.catalog.lookup({ ids: [id] });
      expect(result.products[0]?.id).toBe(id);
      expect(emulator.stats.snapshot()[CALL_ROUTE]).toBe(2);
    });

    it('refuses bad input naming the field, before sending the call', async () => {
      const client = await setUp({ mcpResponse });
      await expect(client.catalog.lookup({})).rejects.toBeInstanceOf(RequestValidationError);
      await expect(client.catalog.lookup({ urls: ['not a url'] })).rejects.toThrow(/urls/);
      await expect(
        client.catalog.getProduct({ id: 'x', selected: [{ name: 'Color', label: '' }] }),
      ).rejects.toThrow(/selected/);
      expect(emulator.stats.snapshot()[CALL_ROUTE]).toBeUndefined();
    });
  },
);

describe('catalog.getProduct against the emulator', () => {
  it('narrows the offers to the selected options, with availability per option value', async () => {
    const client = await setUp();
    const product = productWithChoices();
    const colour = product.variants[0]?.options[0]?.label ?? '';
    const { result } = await client.catalog.getProduct({
      id: product.id,
      selected: [{ name: 'Color', label: colour }],
    });
    expect(result.product?.id).toBe(product.id);
    expect(result.product?.selected).toEqual([{ name: 'Color', label: colour }]);
    const offered = result.product?.variants ?? [];
    expect(offered.length).toBeGreaterThan(0);
    expect(offered.length).toBeLessThan(product.variants.length);
    for (const variant of offered)
      expect(variant.options).toEqual([{ name: 'Color', label: colour }]);
  });

  it('relaxes a selection no offer matches, and puts a requested offer first', async () => {
    const client = await setUp();
    const product = productWithChoices();
    const relaxed = await client.catalog.getProduct({
      id: product.id,
      selected: [{ name: 'Color', label: 'Not A Colour' }],
      preferences: ['Color'],
    });
    expect(relaxed.result.product?.selected).toEqual([]);
    expect(relaxed.result.product?.variants).toHaveLength(product.variants.length);
    const last = product.variants.at(-1);
    const byOffer = await client.catalog.getProduct({ id: last?.id ?? '' });
    expect(byOffer.result.product?.variants[0]?.id).toBe(last?.id);
  });

  it('an unknown id is a successful answer without a product and a not_found message', async () => {
    const client = await setUp();
    const { result } = await client.catalog.getProduct({ id: 'prod_unknown' });
    expect(result.product).toBeUndefined();
    expect(result.messages?.[0]).toMatchObject({ code: 'not_found' });
  });
});
