import type { CountryCode } from '@catalogkit/core';
import { CatalogSearchResultSchema, COUNTRY_CODES } from '@catalogkit/core/schemas';
import { describe, expect, it } from 'vitest';
import { start } from './helpers.js';
import { rpc, searchCatalog, structured } from './mcp-helpers.js';

const TRAIL = { query: 'trail running shoes', pagination: { limit: 5 } };

describe('MCP transport', () => {
  it('answers tools/call without initialize, as SSE by default', async () => {
    const emulator = await start();
    const call = await searchCatalog(emulator.mcpUrl, TRAIL);
    expect(call.status).toBe(200);
    expect(call.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(call.headers.get('mcp-session-id')).toBeNull();
    expect(structured(call).products).toHaveLength(5);
  });

  it("answers plain JSON with mcpResponse: 'json'", async () => {
    const emulator = await start({ mcpResponse: 'json' });
    const call = await searchCatalog(emulator.mcpUrl, TRAIL);
    expect(call.headers.get('content-type')).toMatch(/^application\/json/);
    expect(structured(call).products).toHaveLength(5);
  });

  it('answers 406 when Accept lacks text/event-stream, 405 to GET, and -32700 to broken JSON', async () => {
    const emulator = await start();
    const notAcceptable = await fetch(`${emulator.mcpUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(notAcceptable.status).toBe(406);
    expect(notAcceptable.headers.get('x-ucp-auth-tier')).toBe('anonymous');
    const get = await fetch(`${emulator.mcpUrl}/mcp`);
    expect(get.status).toBe(405);
    const broken = await fetch(`${emulator.mcpUrl}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: '{"jsonrpc": "2.0", ',
    });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ error: { code: -32700 } });
  });
});

describe('search_catalog result', () => {
  it('carries structuredContent in the UCP shape and the same JSON as text in content', async () => {
    const emulator = await start();
    const call = await searchCatalog(emulator.mcpUrl, TRAIL);
    const result = call.message.result as {
      structuredContent: unknown;
      content: { type: string; text: string }[];
    };
    expect(CatalogSearchResultSchema.safeParse(result.structuredContent).success).toBe(true);
    expect(result.content).toHaveLength(1);
    expect(result.content[0]?.type).toBe('text');
    expect(JSON.parse(result.content[0]?.text ?? '')).toEqual(result.structuredContent);
    for (const product of structured(call).products) expect(product.title).toMatch(/Trail/);
  });

  it('reads a price limit and a country from the query', async () => {
    const emulator = await start();
    const call = await searchCatalog(emulator.mcpUrl, {
      query: 'trail running shoes under $120 in GB',
      pagination: { limit: 50 },
    });
    const { products } = structured(call);
    expect(products.length).toBeGreaterThan(10);
    for (const product of products) {
      expect(product.price_range.max.amount).toBeLessThanOrEqual(12000);
      for (const variant of product.variants) {
        expect(variant.price.amount).toBeLessThanOrEqual(12000);
        const website = emulator.data.websiteById.get(variant.metadata.website_id);
        expect(
          website?.homeCountry === 'GB' ||
            (website?.commission[COUNTRY_CODES.indexOf('GB')] ?? 0) > 0,
        ).toBe(true);
      }
    }
    const over = structured(
      await searchCatalog(emulator.mcpUrl, { query: 'trail running shoes over $120' }),
    );
    for (const product of over.products)
      expect(product.price_range.min.amount).toBeGreaterThanOrEqual(12000);
  });

  it('pages with a cursor until has_next_page is false', async () => {
    const emulator = await start();
    const first = structured(
      await searchCatalog(emulator.mcpUrl, {
        query: 'trail running shoes under $80',
        pagination: { limit: 20 },
      }),
    );
    expect(first.pagination.has_next_page).toBe(true);
    const seen = new Set(first.products.map((p) => p.id));
    let cursor = first.pagination.cursor;
    let pages = 1;
    while (cursor) {
      const page = structured(
        await searchCatalog(emulator.mcpUrl, {
          query: 'trail running shoes under $80',
          pagination: { limit: 20, cursor },
        }),
      );
      for (const product of page.products) {
        expect(seen.has(product.id)).toBe(false);
        seen.add(product.id);
      }
      cursor = page.pagination.cursor;
      pages += 1;
      expect(page.pagination.has_next_page).toBe(cursor !== undefined);
    }
    expect(seen.size).toBe(first.pagination.total_count);
    expect(pages).toBeGreaterThan(1);
  });

  it('clamps pagination.limit to 50 silently and defaults to 10', async () => {
    const emulator = await start();
    expect(
      structured(
        await searchCatalog(emulator.mcpUrl, { query: 'shoes', pagination: { limit: 500 } }),
      ).products,
    ).toHaveLength(50);
    expect(
      structured(await searchCatalog(emulator.mcpUrl, { query: 'shoes' })).products,
    ).toHaveLength(10);
  });

  it('says so when only partial matches exist', async () => {
    const emulator = await start();
    const result = structured(
      await searchCatalog(emulator.mcpUrl, { query: 'trail running zeppelin' }),
    );
    expect(result.products.length).toBeGreaterThan(0);
    expect(result.messages).toMatchObject([{ type: 'info', code: 'partial_match' }]);
  });

  it.each([
    [{ meta: null }, 'catalog'],
    [{ meta: null, catalog: { query: '' } }, 'query'],
    [{ meta: null, catalog: { query: 'x', pagination: { limit: 0 } } }, 'limit'],
    [{ meta: null, catalog: { query: 'x', colour: 'red' } }, 'colour'],
    [{ catalog: { query: 'x' } }, 'meta'],
  ])('returns isError naming the field for bad arguments %j', async (args, field) => {
    const emulator = await start();
    const call = await rpc(emulator.mcpUrl, 'tools/call', {
      name: 'search_catalog',
      arguments: args,
    });
    expect(call.message.result?.isError).toBe(true);
    const text = (call.message.result?.content as { text: string }[] | undefined)?.[0]?.text;
    expect(text).toContain(field);
  });

  it('returns isError for a cursor it did not issue', async () => {
    const emulator = await start();
    const call = await searchCatalog(emulator.mcpUrl, {
      query: 'shoes',
      pagination: { limit: 5, cursor: 'bogus' },
    });
    expect(call.message.result?.isError).toBe(true);
  });
});

describe('MCP tiers', () => {
  it('gives the token tier monetized links wrapping the retailer link byte-for-byte', async () => {
    const emulator = await start();
    const call = await searchCatalog(emulator.mcpUrl, TRAIL, { 'x-api-key': emulator.keys.valid });
    expect(call.headers.get('x-ucp-auth-tier')).toBe('token');
    for (const product of structured(call).products) {
      const record = emulator.data.productById.get(product.id);
      product.variants.forEach((variant, i) => {
        const retailerUrl = record?.variants[i]?.url ?? '';
        expect(variant.url.startsWith('https://go.catalogkit.test/r/')).toBe(true);
        expect(variant.url).toContain(`&u=${encodeURIComponent(retailerUrl)}&`);
        expect(variant.url).toContain('campaign=agent+search');
        expect(variant.url).not.toContain(emulator.keys.valid);
        expect(variant.placement).toBeUndefined();
      });
    }
  });

  it('accepts the key as Authorization: Bearer too', async () => {
    const emulator = await start();
    const call = await searchCatalog(emulator.mcpUrl, TRAIL, {
      authorization: `Bearer ${emulator.keys.valid}`,
    });
    expect(call.headers.get('x-ucp-auth-tier')).toBe('token');
  });

  it('adds placement commission data only for the token tier asking for "affiliate"', async () => {
    const emulator = await start();
    const call = await searchCatalog(
      emulator.mcpUrl,
      { ...TRAIL, placements: ['affiliate'] },
      { 'x-api-key': emulator.keys.valid },
    );
    const variants = structured(call).products.flatMap((p) => p.variants);
    expect(variants.length).toBeGreaterThan(0);
    for (const variant of variants) {
      const website = emulator.data.websiteById.get(variant.metadata.website_id);
      const countryIndex = COUNTRY_CODES.indexOf(variant.metadata.seller_country as CountryCode);
      expect(variant.placement).toMatchObject({
        type: 'affiliate',
        website_id: variant.metadata.website_id,
        commission: { percentage: { value: website?.commission[countryIndex] } },
      });
    }
    const anonymous = await searchCatalog(emulator.mcpUrl, { ...TRAIL, placements: ['affiliate'] });
    for (const product of structured(anonymous).products) {
      for (const variant of product.variants) expect(variant.placement).toBeUndefined();
    }
  });

  it("scopes placement commission to the shopper's country named in the query", async () => {
    const emulator = await start();
    const call = await searchCatalog(
      emulator.mcpUrl,
      { query: 'trail running shoes in GB', placements: ['affiliate'] },
      { 'x-api-key': emulator.keys.valid },
    );
    const variants = structured(call).products.flatMap((p) => p.variants);
    expect(variants.some((v) => v.metadata.seller_country !== 'GB')).toBe(true);
    for (const variant of variants) {
      const website = emulator.data.websiteById.get(variant.metadata.website_id);
      expect(variant.placement).toMatchObject({
        country: 'GB',
        commission: { percentage: { value: website?.commission[COUNTRY_CODES.indexOf('GB')] } },
      });
    }
  });

  it.each([
    ['no key', {}],
    ['an unknown key', { 'x-api-key': 'ck_test_nobody' }],
    ['a bad bearer', { authorization: 'Bearer nope' }],
    ['a key without credits', { 'x-api-key': 'ck_test_nocredits_000000000000' }],
  ])('treats %s as anonymous: no 401, plain retailer links', async (_label, headers) => {
    const emulator = await start();
    const call = await searchCatalog(emulator.mcpUrl, TRAIL, headers);
    expect(call.status).toBe(200);
    expect(call.headers.get('x-ucp-auth-tier')).toBe('anonymous');
    for (const product of structured(call).products) {
      const record = emulator.data.productById.get(product.id);
      expect(product.variants.map((v) => v.url)).toEqual(record?.variants.map((v) => v.url));
    }
  });

  it('sets the tier header on every MCP answer, tools/list included', async () => {
    const emulator = await start();
    const list = await rpc(emulator.mcpUrl, 'tools/list', {}, { 'x-api-key': emulator.keys.valid });
    expect(list.headers.get('x-ucp-auth-tier')).toBe('token');
    expect(
      (list.message.result?.tools as { name: string }[] | undefined)?.map((t) => t.name),
    ).toEqual(['search_catalog', 'lookup_catalog', 'get_product']);
  });
});
