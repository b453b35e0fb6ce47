import { COUNTRY_CODES, WebsiteSearchResponseSchema } from '@catalogkit/core/schemas';
import { describe, expect, it } from 'vitest';
import { get, searchWebsites, start } from './helpers.js';

const names = (body: { websites: { name: string }[] }) =>
  body.websites.map((website) => website.name);

describe('GET /v1/websites/search relevance', () => {
  it('orders exact name, then prefix, then substring, then typo matches, whatever their popularity', async () => {
    const emulator = await start();
    const { status, body } = await searchWebsites(emulator, { query: 'Quarry', limit: '10' });
    expect(status).toBe(200);
    expect(WebsiteSearchResponseSchema.safeParse(body).success).toBe(true);
    expect(names(body)).toEqual([
      'Quarry',
      'Quarryman Running',
      'Old Quarry Outfitters',
      'Stonequarry Supply',
      'Quary Goods',
    ]);
  });

  it('puts the exact domain first, also when the query is a URL', async () => {
    const emulator = await start();
    for (const query of [
      'quarrymanrunning.com',
      'https://www.quarrymanrunning.com/shoes?x=1',
      'QUARRYMANRUNNING.COM',
    ]) {
      const { body } = await searchWebsites(emulator, { query });
      expect(names(body)[0]).toBe('Quarryman Running');
    }
  });

  it('finds a retailer despite a typo', async () => {
    const emulator = await start();
    const { body } = await searchWebsites(emulator, { query: 'trailhed running' });
    expect(names(body)).toContain('Trailhead Running');
  });

  it('returns the contract fields: id, url and best_commission_rate', async () => {
    const emulator = await start();
    const { body } = await searchWebsites(emulator, { query: 'fellandtrail.co.uk' });
    const website = emulator.data.websites.find((w) => w.domain === 'fellandtrail.co.uk');
    expect(body.websites[0]).toEqual({
      id: website?.id,
      url: 'https://www.fellandtrail.co.uk',
      best_commission_rate: website?.commission[0],
      name: 'Fell & Trail',
    });
  });
});

describe('GET /v1/websites/search country scope', () => {
  it('scopes best_commission_rate to country, US by default', async () => {
    const emulator = await start();
    const website = emulator.data.websites.find(
      (w) => w.commission[0] !== w.commission[1] && w.commission[1]! > 0,
    );
    if (!website) throw new Error('fixture: no website with different US and GB rates');
    const byDefault = await searchWebsites(emulator, { query: website.domain });
    const inGb = await searchWebsites(emulator, { query: website.domain, country: 'GB' });
    expect(byDefault.body.websites[0]?.best_commission_rate).toBe(website.commission[0]);
    expect(inGb.body.websites[0]?.best_commission_rate).toBe(
      website.commission[COUNTRY_CODES.indexOf('GB')],
    );
  });

  it('gives 0 where the website pays no commission in that country', async () => {
    const emulator = await start();
    const countryIndex = COUNTRY_CODES.indexOf('RO');
    const website = emulator.data.websites.find((w) => w.commission[countryIndex] === 0);
    const { body } = await searchWebsites(emulator, {
      query: website?.domain ?? '',
      country: 'RO',
    });
    expect(body.websites[0]?.best_commission_rate).toBe(0);
  });
});

describe('GET /v1/websites/search categories', () => {
  it("matches only within each category's top 1,000 websites", async () => {
    const emulator = await start();
    const { data } = emulator;
    const top = data.categoryTopSets.get('running-shoes');
    const outsiderIndex = data.websites.findIndex(
      (w, i) => w.categories.includes('running-shoes') && !top?.has(i),
    );
    const outsider = data.websites[outsiderIndex];
    if (!outsider) throw new Error('fixture: every running-shoes seller is in the top 1,000');
    const unfiltered = await searchWebsites(emulator, { query: outsider.domain });
    expect(unfiltered.body.websites[0]?.id).toBe(outsider.id);
    const filtered = await searchWebsites(emulator, {
      query: outsider.domain,
      category_ids: 'running-shoes',
    });
    expect(filtered.status).toBe(200);
    expect(filtered.body.websites.map((w) => w.id)).not.toContain(outsider.id);
    const insider = data.websites[data.categoryTop.get('running-shoes')?.[999] ?? -1];
    const kept = await searchWebsites(emulator, {
      query: insider?.domain ?? '',
      category_ids: 'running-shoes',
    });
    expect(kept.body.websites[0]?.id).toBe(insider?.id);
  });

  it('takes several categories, repeated or comma-separated, and matches any of them', async () => {
    const emulator = await start();
    const { data } = emulator;
    const shoeOnly = data.websites[data.categoryTop.get('running-shoes')?.[0] ?? -1];
    const repeated = await searchWebsites(emulator, {
      query: shoeOnly?.domain ?? '',
      category_ids: ['laptops', 'running-shoes'],
    });
    const commas = await searchWebsites(emulator, {
      query: shoeOnly?.domain ?? '',
      category_ids: 'laptops,running-shoes',
    });
    expect(repeated.body.websites[0]?.id).toBe(shoeOnly?.id);
    expect(commas.body).toEqual(repeated.body);
  });

  it('answers 422 for an unknown or unsearchable category, naming it', async () => {
    const emulator = await start();
    const { status, body } = await searchWebsites(emulator, {
      query: 'fell',
      category_ids: ['running-shoes', 'moon-boots', 'gift-cards'],
    });
    expect(status).toBe(422);
    expect(body).toEqual({
      detail: [
        {
          loc: ['query', 'category_ids', 1],
          msg: "Unknown category: 'moon-boots'",
          type: 'unknown_category',
        },
        {
          loc: ['query', 'category_ids', 2],
          msg: "Category 'gift-cards' is not available for search",
          type: 'unsearchable_category',
        },
      ],
    });
  });
});

describe('GET /v1/websites/search limits', () => {
  it('returns 5 websites by default and at most limit', async () => {
    const emulator = await start();
    expect((await searchWebsites(emulator, { query: 'supply' })).body.websites).toHaveLength(5);
    expect(
      (await searchWebsites(emulator, { query: 'supply', limit: '20' })).body.websites,
    ).toHaveLength(20);
    expect(
      (await searchWebsites(emulator, { query: 'supply', limit: '1' })).body.websites,
    ).toHaveLength(1);
  });

  it.each([
    ['limit=0', 'limit', 'greater_than_equal'],
    ['limit=21', 'limit', 'less_than_equal'],
    ['limit=abc', 'limit', 'int_parsing'],
    ['limit=2.5', 'limit', 'int_parsing'],
    ['country=XX', 'country', 'enum'],
    ['query=', 'query', 'string_too_short'],
    [`query=${'a'.repeat(201)}`, 'query', 'string_too_long'],
  ])('answers 422 for %s, naming the field', async (params, field, type) => {
    const emulator = await start();
    const query = params.startsWith('query=') ? params : `query=nike&${params}`;
    const response = await get(emulator, `/v1/websites/search?${query}`);
    expect(response.status).toBe(422);
    const body = (await response.json()) as {
      detail: { loc: unknown[]; msg: string; type: string }[];
    };
    expect(body.detail).toHaveLength(1);
    expect(body.detail[0]).toMatchObject({ loc: ['query', field], type });
    expect(body.detail[0]?.msg.length).toBeGreaterThan(0);
  });

  it('accepts a 200-character query and answers 422 "Field required" without one', async () => {
    const emulator = await start();
    expect((await get(emulator, `/v1/websites/search?query=${'a'.repeat(200)}`)).status).toBe(200);
    const missing = await get(emulator, '/v1/websites/search?limit=3');
    expect(missing.status).toBe(422);
    expect(await missing.json()).toEqual({
      detail: [{ loc: ['query', 'query'], msg: 'Field required', type: 'missing' }],
    });
  });
});
