import { describe, expect, it } from 'vitest';
import {
  type CatalogSearchResult,
  CatalogSearchResultSchema,
  commissionPercentage,
} from '../src/schemas/index.js';
import { formatWebsites } from '../src/tools/built-in/search-websites.js';
import { formatCollection } from '../src/tools/built-in/update-collection.js';
import { buyLinkReference } from '../src/tools/buy-link-reference.js';
import {
  catalogViewLegend,
  commissionText,
  formatCatalogResult,
} from '../src/tools/catalog-view.js';
import { formatMinorUnits, minorUnitsText } from '../src/tools/money.js';

/** Buy links with characters a careless formatter would re-encode or shorten. */
const BUY_LINKS = [
  'https://shop.example/p/trail-runner?variant=9&utm_source=catalog&ref=A%2Fb+c',
  'https://shop.example/p/trail-runner?variant=10&utm_source=catalog&ref=A%2Fb+c',
  'https://go.example/r?u=https%3A%2F%2Fsock.example%2Fx&sig=ZmFrZQ==',
] as const;

/** A `structuredContent` shaped like the UCP catalog result (service contract), with extras. */
const catalogFixture: CatalogSearchResult = CatalogSearchResultSchema.parse({
  ucp: { version: '2026-01-11' },
  products: [
    {
      id: 'prod_trail',
      title: 'Trail Runner 2',
      description: { plain: 'A long description the model does not need. '.repeat(5) },
      price_range: {
        min: { amount: 12999, currency: 'USD' },
        max: { amount: 12999, currency: 'USD' },
      },
      media: [{ type: 'image', url: 'https://img.example/trail.jpg', alt_text: 'shoe' }],
      rating: { value: 4.5, scale_max: 5, count: 120 },
      categories: [{ value: 'running-shoes', taxonomy: 'catalogkit' }],
      metadata: { brand_id: 'brand_acme', brand_name: 'Acme' },
      variants: [
        {
          id: 'var_9',
          title: 'Size 9',
          description: { plain: 'Size 9' },
          price: { amount: 12999, currency: 'USD' },
          list_price: { amount: 14999, currency: 'USD' },
          url: BUY_LINKS[0],
          availability: { available: true },
          seller: { name: 'Zappos', links: [{ type: 'website', url: 'https://zappos.example' }] },
          placement: { commission: { percentage: { value: 8 } } },
          sku: 'TR2-9',
          metadata: { website_id: 'web_zappos', seller_country: 'US' },
        },
        {
          id: 'var_10',
          title: 'Trail Runner 2 - Size 10',
          description: { plain: 'Size 10' },
          price: { amount: 12999, currency: 'USD' },
          url: BUY_LINKS[1],
          availability: { available: false, status: 'out_of_stock' },
          seller: { name: 'Zappos' },
          // No metadata: the website id is read from the placement.
          placement: { website_id: 'web_zappos', commission: { percentage: { value: 8 } } },
        },
      ],
      unknown_field: { kept: true },
    },
    {
      id: 'prod_sock',
      title: 'Wool Sock',
      description: { plain: 'Socks.' },
      price_range: {
        min: { amount: 1500, currency: 'JPY' },
        max: { amount: 1500, currency: 'JPY' },
      },
      variants: [
        {
          id: 'var_sock',
          title: 'Wool Sock',
          description: { plain: 'Socks.' },
          price: { amount: 1500, currency: 'JPY' },
          url: BUY_LINKS[2],
          availability: { available: true },
          seller: { name: 'Sock Shop' },
          placement: { tier: 'gold' },
        },
      ],
    },
  ],
  pagination: { cursor: 'c_2', has_next_page: true, total_count: 57 },
  messages: [{ type: 'warning', code: 'clamped', content: 'limit clamped to 2' }],
});

const query = { query: 'trail shoes', pagination: { limit: 2 } };

describe('formatMinorUnits', () => {
  it('formats minor units with the currency’s own number of digits', () => {
    expect(formatMinorUnits({ amount: 12999, currency: 'USD' })).toBe('$129.99');
    expect(formatMinorUnits({ amount: 1500, currency: 'JPY' })).toBe('¥1,500');
    expect(formatMinorUnits({ amount: 1234, currency: 'KWD' })).toBe('KWD\u00a01.234');
    expect(formatMinorUnits({ amount: 5, currency: 'EUR' })).toBe('€0.05');
    expect(formatMinorUnits({ amount: 123456, currency: 'CAD' })).toBe('CA$1,234.56');
  });

  it('still prints an unknown currency code, with two digits', () => {
    expect(formatMinorUnits({ amount: 250, currency: 'not a code' })).toBe('2.50 not a code');
  });

  // S6: the division is by the ISO 4217 exponent; CLDR's display digits (0 for HUF and IQD)
  // would make HUF 199 900 (1 999,00 Ft) read 199,900 and IQD 10 000 000 read 10,000,000.
  it('divides by the ISO 4217 minor units, not by Intl display digits (S6)', () => {
    expect(formatMinorUnits({ amount: 199_900, currency: 'HUF' })).toBe('HUF\u00a01,999.00');
    expect(formatMinorUnits({ amount: 10_000_000, currency: 'IQD' })).toBe('IQD\u00a010,000.000');
    expect(formatMinorUnits({ amount: 1500, currency: 'JPY' })).toBe('¥1,500');
    expect(formatMinorUnits({ amount: 4200, currency: 'USD' })).toBe('$42.00');
    expect(formatMinorUnits({ amount: 12_345, currency: 'CLF' })).toBe('CLF\u00a01.2345');
    // Well-formed but unassigned: Intl draws it, with ISO's default of two minor units.
    expect(formatMinorUnits({ amount: 250, currency: 'XYZ' })).toBe('XYZ\u00a02.50');
    expect(formatMinorUnits({ amount: 250, currency: 'DOLLAR' })).toBe('2.50 DOLLAR');
    // Never rounded away: half a forint is shown, not 2,000.
    expect(formatMinorUnits({ amount: 199_950, currency: 'HUF' })).toBe('HUF\u00a01,999.50');
    // What the storefront ships: the function's own source text, run on its own.
    const shipped = new Function(
      `return (${minorUnitsText.toString()})`,
    )() as typeof minorUnitsText;
    expect(shipped({ amount: 10_000_000, currency: 'IQD' }, new Map())).toBe('IQD\u00a010,000.000');
  });
});

describe('formatCatalogResult', () => {
  const text = formatCatalogResult(
    { request: query, response: catalogFixture, tier: 'token' },
    'inline',
  );

  it('keeps every buy link byte for byte', () => {
    for (const link of BUY_LINKS) expect(text).toContain(link);
  });

  it('shows the facts a shopper needs and the ids other tools need', () => {
    expect(text).toContain('2 of 57 products for "trail shoes".');
    expect(text.split('\n').slice(1)).toEqual([
      'warning clamped: limit clamped to 2',
      'Category running-shoes:',
      'Trail Runner 2 | prod_trail | brand_acme',
      `- Size 9 | $129.99 (was $149.99) | Zappos | web_zappos | 8% | ${BUY_LINKS[0]}`,
      // The variant title's repetition of the product title is dropped.
      `- Size 10 | $129.99 (out of stock) | Zappos | web_zappos | 8% | ${BUY_LINKS[1]}`,
      // One variant repeating the product's title: a single line; it has no website id.
      `Wool Sock | prod_sock | ¥1,500 | Sock Shop | placement {"tier":"gold"} | ${BUY_LINKS[2]}`,
      'Next page: the same query with cursor "c_2".',
    ]);
  });

  it('does not print a website id again that the printed buy link contains', () => {
    const [trail] = catalogFixture.products;
    const variant = { ...trail!.variants[0]!, url: 'https://go.example/r/web_zappos?sig=1' };
    const result = { products: [{ ...trail!, variants: [variant] }] };
    const inline = formatCatalogResult(
      { request: query, response: result, tier: 'token' },
      'inline',
    );
    expect(inline).toContain('Zappos | 8% | https://go.example/r/web_zappos?sig=1');
    // In reference mode the model does not read the link, so the id is printed.
    const reference = formatCatalogResult(
      { request: query, response: result, tier: 'token' },
      'reference',
    );
    expect(reference).toContain(`Zappos | web_zappos | 8% | ${buyLinkReference(variant.url)}`);
  });

  it('by default prints references: no URL of the result reaches the model', () => {
    const byDefault = formatCatalogResult({
      request: query,
      response: catalogFixture,
      tier: 'token',
    });
    expect(byDefault).toBe(
      formatCatalogResult({ request: query, response: catalogFixture, tier: 'token' }, 'reference'),
    );
    expect(byDefault).not.toMatch(/https?:/i);
    for (const link of BUY_LINKS) expect(byDefault).toContain(buyLinkReference(link));
  });

  it('in reference mode prints a reference for each buy link and no link', () => {
    const reference = formatCatalogResult(
      { request: query, response: catalogFixture, tier: 'token' },
      'reference',
    );
    for (const link of BUY_LINKS) {
      expect(reference).not.toContain(link);
      expect(reference).toContain(buyLinkReference(link));
    }
    expect(reference.split('\n').length).toBe(text.split('\n').length);
  });

  it('has a legend for the tool description that tells the model what to write for a link', () => {
    expect(catalogViewLegend('inline')).toContain('exactly as printed');
    expect(catalogViewLegend('reference')).toContain('Never write a buy URL yourself');
    expect(catalogViewLegend('reference')).toContain('[[buy:123456789]]');
  });

  it('passes on service messages and the cursor of the next page', () => {
    expect(text).toContain('warning clamped: limit clamped to 2');
    expect(text).toContain('cursor "c_2"');
  });

  it('leaves out what the model does not need', () => {
    expect(text).not.toContain('long description');
    expect(text).not.toContain('img.example');
    expect(text).not.toContain('TR2-9');
    expect(text).not.toContain('unknown_field');
    expect(text).not.toMatch(/not monetized/);
  });

  it('says when links are not monetized and commission needs a key', () => {
    const anonymous = formatCatalogResult({
      request: { ...query, placements: ['affiliate'] },
      response: catalogFixture,
      tier: 'anonymous',
    });
    expect(anonymous).toContain('Buy links are not monetized (anonymous tier: no valid API key).');
    expect(anonymous).toContain('Commission data needs a valid API key');
  });

  it('says so when nothing matched', () => {
    const empty = formatCatalogResult({
      request: query,
      response: { products: [] },
      tier: 'token',
    });
    expect(empty).toBe(
      '0 products for "trail shoes".\nNothing matched; try broader or different words.',
    );
  });

  it('falls back to the price range for a product without variants', () => {
    const [product] = catalogFixture.products;
    const noVariants = formatCatalogResult({
      request: query,
      response: { products: [{ ...product!, variants: [], url: 'https://shop.example/p' }] },
      tier: 'token',
    });
    expect(noVariants).toContain(
      `Trail Runner 2 | prod_trail | brand_acme | $129.99 | ${buyLinkReference('https://shop.example/p')}`,
    );
  });
});

describe('commissionPercentage', () => {
  it('reads the comparable catalog shape and nothing else', () => {
    expect(commissionPercentage({ commission: { percentage: { value: 12 } } })).toBe(12);
    expect(commissionPercentage({ commission: { percentage: { value: '12.5' } } })).toBe('12.5');
    expect(commissionPercentage({ commission: { flat: { value: 3 } } })).toBeUndefined();
    expect(commissionPercentage({ commission: [] })).toBeUndefined();
    expect(commissionPercentage(undefined)).toBeUndefined();
  });
});

describe('commissionText', () => {
  it('shows nothing without placement data', () => {
    expect(commissionText(undefined)).toBeUndefined();
    expect(commissionText({})).toBeUndefined();
  });
});

describe('formatWebsites', () => {
  it('lists each website with its name, id and best commission rate, defaulting the rate to 0', () => {
    const text = formatWebsites({
      request: { query: 'nike', country: 'GB' },
      response: {
        websites: [
          { id: 'web_nike', url: 'https://www.nike.com', best_commission_rate: 7.5, name: 'Nike' },
          { id: 'web_other', url: 'https://other.example' },
        ],
      },
    });
    expect(text).toBe(
      [
        '2 websites for "nike" (commission rates for GB).',
        // A name the service sends (not in the contract) is shown; without one, the address leads.
        '1. Nike | https://www.nike.com | website_id web_nike | best commission 7.5%',
        '2. https://other.example | website_id web_other | best commission 0%',
      ].join('\n'),
    );
  });

  it('names the service default country when none was sent', () => {
    const text = formatWebsites({ request: { query: 'x' }, response: { websites: [] } });
    expect(text).toContain('(commission rates for US)');
    expect(text).toContain('Nothing matched');
  });
});

describe('formatCollection', () => {
  it('lists the collection and every clause with its non-empty selectors', () => {
    const text = formatCollection({
      request: { collectionId: 'col_summer', update: { name: 'Summer' } },
      response: {
        collection_id: 'col_summer',
        name: 'Summer',
        description: 'Beach things',
        clauses: [
          {
            clause_id: 'cl_1',
            brand_ids: [],
            website_ids: ['web_1', 'web_2'],
            category_ids: [],
            product_ids: ['p_1'],
          },
          { clause_id: 'cl_2', brand_ids: [], website_ids: [], category_ids: [], product_ids: [] },
        ],
      },
    });
    expect(text).toBe(
      [
        'Updated collection "Summer" (collection_id col_summer); it has 2 clauses.',
        'Description: Beach things',
        '- clause_id cl_1 | website_ids web_1, web_2 | product_ids p_1',
        '- clause_id cl_2 | selects nothing',
      ].join('\n'),
    );
  });
});
