import { CatalogClient, type CatalogClientOptions, RateLimitError } from '@catalogkit/core';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { afterEach, describe, expect, it } from 'vitest';

let emulator: RunningEmulator;
afterEach(() => emulator.close());

const CALL_ROUTE = 'POST /mcp tools/call';

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

function anonymous(options: CatalogClientOptions = {}) {
  return new CatalogClient({ mcpUrl: emulator.mcpUrl, apiKey: undefined, ...options });
}

describe.each(['sse', 'json'] as const)(
  'catalog.search against the emulator (%s answers)',
  (mcpResponse) => {
    it('a valid key gets the token tier, monetized links and placement data, in one POST', async () => {
      const client = await setUp({ mcpResponse });
      const { result, tier } = await client.catalog.search({
        query: 'running shoes',
        pagination: { limit: 2 },
        placements: ['affiliate'],
      });
      expect(tier).toBe('token');
      expect(result.products.length).toBeGreaterThan(0);
      const variant = result.products[0]?.variants[0];
      expect(variant?.url).toEqual(expect.any(String));
      expect(variant?.placement).toBeDefined();
      expect(emulator.stats.snapshot()).toEqual({ 'POST /mcp': 1, [CALL_ROUTE]: 1 });
    });

    it('works without a key: anonymous tier, no placement data, links not monetized', async () => {
      const client = await setUp({ mcpResponse });
      const catalog = { query: 'running shoes', placements: ['affiliate'] };
      const { result, tier } = await anonymous().catalog.search(catalog);
      expect(tier).toBe('anonymous');
      expect(result.products[0]?.variants[0]?.placement).toBeUndefined();
      const monetized = (await client.catalog.search(catalog)).result;
      expect(monetized.products[0]?.id).toBe(result.products[0]?.id);
      expect(monetized.products[0]?.variants[0]?.url).not.toBe(
        result.products[0]?.variants[0]?.url,
      );
    });

    it('an invalid key falls back to anonymous without an error', async () => {
      await setUp({ mcpResponse });
      const { tier } = await anonymous({ apiKey: emulator.keys.invalid }).catalog.search({
        query: 'shoes',
      });
      expect(tier).toBe('anonymous');
    });

    it('the Authorization: Bearer style also gets the token tier', async () => {
      const client = await setUp({ mcpResponse }, { mcpAuthHeader: 'bearer' });
      expect((await client.catalog.search({ query: 'shoes' })).tier).toBe('token');
    });

    it('buy links are returned byte-for-byte as the service sent them', async () => {
      const client = await setUp({ mcpResponse });
      const { result } = await client.catalog.search({
        query: 'running shoes',
        pagination: { limit: 3 },
      });
      const raw = await rawSearch(emulator, 'running shoes', 3);
      const links = (products: { variants: { url?: string }[] }[]) =>
        products.flatMap((product) => product.variants.map((variant) => variant.url));
      expect(links(result.products)).toEqual(links(raw.products));
      expect(result).toEqual(raw);
    });

    it('an exhausted anonymous quota is a RateLimitError with Retry-After', async () => {
      await setUp({ mcpResponse, rateLimits: { mcpAnonymous: 1 } });
      const client = anonymous();
      await client.catalog.search({ query: 'shoes' });
      const error = await client.catalog.search({ query: 'shoes' }).catch((caught) => caught);
      expect(error).toBeInstanceOf(RateLimitError);
      expect(error.retryAfterMs).toBeGreaterThan(0);
    });

    it('a transient 503 is retried', async () => {
      const client = await setUp({
        mcpResponse,
        faults: { routes: [CALL_ROUTE], status: 503, retryAfterSeconds: 0, times: 1 },
      });
      await expect(client.catalog.search({ query: 'shoes' })).resolves.toHaveProperty(
        'tier',
        'token',
      );
      expect(emulator.stats.count(CALL_ROUTE)).toBe(2);
    });
  },
);

/** The same search sent by hand, to compare the client's result with the wire payload. */
async function rawSearch(running: RunningEmulator, query: string, limit: number) {
  const response = await fetch(`${running.mcpUrl}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'x-api-key': running.keys.valid,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'search_catalog',
        arguments: { meta: null, catalog: { query, pagination: { limit } } },
      },
    }),
  });
  const text = await response.text();
  const json = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '');
  return JSON.parse(json).result.structuredContent;
}
