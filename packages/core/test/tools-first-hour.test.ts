import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CatalogClient } from '../src/client.js';
import { ConfigurationError } from '../src/errors/index.js';
import {
  type CatalogSearchResult,
  CatalogSearchResultSchema,
  type Collection,
  type Product,
  type Website,
} from '../src/schemas/index.js';
import { formatWebsites } from '../src/tools/built-in/search-websites.js';
import { formatCollection } from '../src/tools/built-in/update-collection.js';
import { createCatalogToolList } from '../src/tools/catalog-tools.js';
import { countOf, formatCatalogResult } from '../src/tools/catalog-view.js';
import { TEST_KEY } from './support/fixtures.js';

const ORIGIN = 'http://127.0.0.1:9';

beforeEach(() => {
  // Whatever the shell running the tests has set, these tests choose every setting.
  for (const name of ['CATALOG_API_KEY', 'CATALOG_BASE_URL', 'CATALOG_MCP_URL']) {
    vi.stubEnv(name, '');
  }
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('counts the model reads', () => {
  it('puts the noun in the right number', () => {
    expect([0, 1, 2].map((count) => countOf(count, 'clause'))).toEqual([
      '0 clauses',
      '1 clause',
      '2 clauses',
    ]);
  });

  it('search_websites: "1 website", "0 websites"', () => {
    const one: Website = { id: 'web_1', url: 'https://one.example' };
    const text = formatWebsites({ request: { query: 'one' }, response: { websites: [one] } });
    expect(text.split('\n')[0]).toBe('1 website for "one" (commission rates for US).');
    const none = formatWebsites({ request: { query: 'zz' }, response: { websites: [] } });
    expect(none.split('\n')[0]).toBe('0 websites for "zz" (commission rates for US).');
  });

  it('update_collection: "it has 1 clause"', () => {
    const collection: Collection = {
      collection_id: 'col_1',
      name: 'Summer',
      clauses: [
        { clause_id: 'cl_1', brand_ids: [], website_ids: [], category_ids: [], product_ids: ['p'] },
      ],
    };
    const text = formatCollection({
      request: { collectionId: 'col_1', update: { name: 'Summer' } },
      response: collection,
    });
    expect(text.split('\n')[0]).toBe(
      'Updated collection "Summer" (collection_id col_1); it has 1 clause.',
    );
    const empty = formatCollection({
      request: { collectionId: 'col_1', update: { name: 'Summer' } },
      response: { ...collection, clauses: [] },
    });
    expect(empty.split('\n')[0]).toContain('it has 0 clauses.');
  });

  it('search_catalog: "1 product", "1 of 1 product", "1 of 7 products"', () => {
    const product: Product = { id: 'p', title: 'Trail Runner', variants: [] };
    const head = (result: CatalogSearchResult) =>
      formatCatalogResult({ request: { query: 'trail' }, response: result, tier: 'token' }).split(
        '\n',
      )[0];
    expect(head({ products: [product] })).toBe('1 product for "trail".');
    expect(head({ products: [product], pagination: { total_count: 1 } })).toBe(
      '1 of 1 product for "trail".',
    );
    expect(head({ products: [product], pagination: { total_count: 7 } })).toBe(
      '1 of 7 products for "trail".',
    );
  });
});

/** The ConfigurationError of a tool's first call (with a valid input): creating never throws. */
async function firstCallError(
  tool: ReturnType<typeof createCatalogToolList>[number] | undefined,
): Promise<ConfigurationError> {
  const inputs: Record<string, unknown> = {
    search_catalog: { query: 'shoes' },
    search_websites: { query: 'nike' },
    update_collection: { collection_id: 'c1', name: 'Summer' },
  };
  const error: unknown = await tool?.execute(inputs[tool.originalName] as never).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (error instanceof ConfigurationError) return error;
  throw new Error(`expected a ConfigurationError, got ${String(error)}`);
}

describe('configuration checked at the first call, not when the tools are made', () => {
  it('without any setting: creating succeeds; each first call names the missing option and environment variable', async () => {
    const tools = createCatalogToolList();
    expect(tools).toHaveLength(3);
    const [catalog, websites, update] = await Promise.all(tools.map(firstCallError));
    expect(catalog?.message).toMatch(
      /needs the MCP URL: pass the mcpUrl option or set CATALOG_MCP_URL/,
    );
    expect(websites?.message).toMatch(
      /needs the REST base URL: pass the baseUrl option or set CATALOG_BASE_URL/,
    );
    expect(update?.message).toMatch(/needs the REST base URL/);
  });

  it('the MCP URL alone: the REST tools name the base URL, then the key', async () => {
    const [, websites] = createCatalogToolList({ clientOptions: { mcpUrl: ORIGIN } });
    expect((await firstCallError(websites)).message).toContain(
      'baseUrl option or set CATALOG_BASE_URL',
    );
    const tools = createCatalogToolList({
      clientOptions: { mcpUrl: ORIGIN },
      include: ['search_catalog'],
    });
    expect(tools.map((tool) => tool.name)).toEqual(['search_catalog']);
  });

  it('the REST settings alone: update_collection and search_websites work without the MCP URL', () => {
    const tools = createCatalogToolList({
      clientOptions: { baseUrl: ORIGIN, apiKey: TEST_KEY },
      exclude: ['search_catalog'],
    });
    expect(tools.map((tool) => tool.name)).toEqual(['search_websites', 'update_collection']);
  });

  it('reads the environment, and a client passed in', async () => {
    vi.stubEnv('CATALOG_MCP_URL', ORIGIN);
    vi.stubEnv('CATALOG_BASE_URL', ORIGIN);
    const [, , update] = createCatalogToolList();
    expect((await firstCallError(update)).message).toMatch(
      /needs an API key: pass the apiKey option or set CATALOG_API_KEY/,
    );
    vi.stubEnv('CATALOG_BASE_URL', '');
    const client = new CatalogClient({ mcpUrl: ORIGIN });
    const [, websites] = createCatalogToolList({ client });
    await expect(firstCallError(websites)).resolves.toBeInstanceOf(ConfigurationError);
    expect(createCatalogToolList({ client, include: ['search_catalog'] })).toHaveLength(1);
  });
});

describe('result types', () => {
  it('refuse a misspelt field at compile time; the parse keeps unknown fields at run time', () => {
    // The public type, as `client.catalog.search` and the tools return it.
    const result: CatalogSearchResult = CatalogSearchResultSchema.parse({
      products: [
        {
          id: 'p',
          title: 'Trail Runner',
          shelf: 'A3',
          variants: [{ id: 'v', price: { amount: 100, currency: 'USD' } }],
        },
      ],
    });
    const variant = result.products[0]?.variants[0];
    expect(variant?.price?.amount).toBe(100);
    // @ts-expect-error `prise` is not a field of Variant (the typo the issue found).
    expect(variant?.prise).toBeUndefined();
    // @ts-expect-error unknown fields are not typed, though they are kept.
    expect(result.products[0]?.shelf).toBe('A3');
    const open: Readonly<Record<string, unknown>> = result.products[0] ?? {};
    expect(open.shelf).toBe('A3');
  });
});
