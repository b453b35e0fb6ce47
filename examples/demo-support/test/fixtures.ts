import type { Product, SearchCatalogOutput, SearchWebsitesOutput, Website } from '@catalogkit/core';

/** A buy link with the characters a careless client would re-encode. */
export const TRICKY_URL =
  'https://www.fellandtrail.co.uk/products/kestrel-ridge-3?variant=123456&color=Slate%2FBlue&utm_source=catalog+feed';

interface OfferSpec {
  id: string;
  amount: number;
  seller: string;
  url: string;
  available?: boolean;
  title?: string;
  /** The retailer's website id, which the catalog puts in the variant's metadata. */
  websiteId?: string;
  /** Commission percentage in `placement`, as the catalog sends when asked for "affiliate". */
  commission?: number;
}

function variant(spec: OfferSpec) {
  return {
    id: spec.id,
    ...(spec.title === undefined ? {} : { title: spec.title }),
    price: { amount: spec.amount, currency: 'USD' },
    url: spec.url,
    availability: {
      available: spec.available ?? true,
      status: spec.available === false ? 'out_of_stock' : 'in_stock',
    },
    seller: { name: spec.seller, links: [] },
    ...(spec.websiteId === undefined ? {} : { metadata: { website_id: spec.websiteId } }),
    ...(spec.commission === undefined
      ? {}
      : { placement: { commission: { percentage: { value: spec.commission } } } }),
  };
}

/** A product with one or more offers. */
export function product(id: string, title: string, offers: OfferSpec[]): Product {
  return { id, title, variants: offers.map(variant) };
}

/** The demo-like catalog: some offers over budget, one out of stock, four retailers. */
export function catalogOutput(): SearchCatalogOutput {
  return {
    request: { query: 'trail running shoes', pagination: { limit: 10 }, placements: ['affiliate'] },
    tier: 'token',
    response: {
      products: [
        product('prod_a', 'Kestrel Ridge 3 Trail Running Shoe', [
          {
            id: 'prod_a_v1',
            amount: 10999,
            seller: 'Fell & Trail',
            url: TRICKY_URL,
            websiteId: 'web_fell',
          },
        ]),
        product('prod_b', 'Velora Summit Trail Runner', [
          {
            id: 'prod_b_v1',
            amount: 12999,
            seller: 'Fell & Trail',
            url: 'https://www.fellandtrail.co.uk/b',
            title: 'Velora Summit Trail Runner - Red',
          },
          {
            id: 'prod_b_v2',
            amount: 11499,
            seller: 'Run Republic',
            url: 'https://www.runrepublic.co.uk/b',
            title: 'Velora Summit Trail Runner - Blue',
          },
        ]),
        product('prod_c', 'Harbor Mountain Running Shoe', [
          {
            id: 'prod_c_v1',
            amount: 8999,
            seller: 'Cheap Kicks',
            url: 'https://www.cheapkicks.com/c',
          },
        ]),
        product('prod_d', 'Atlas Trail Runner GTX', [
          {
            id: 'prod_d_v1',
            amount: 9999,
            seller: 'Run Republic',
            url: 'https://www.runrepublic.co.uk/d',
            available: false,
          },
        ]),
        product('prod_e', 'Nova Fell Racer', [
          {
            id: 'prod_e_v1',
            amount: 11999,
            seller: 'Trailhead Running',
            url: 'https://www.trailheadrunning.com/e',
            websiteId: 'web_trailhead',
          },
        ]),
      ],
    },
  };
}

/** A website search answer for one retailer. */
export function websitesOutput(
  query: string,
  websites: Website[],
  country: 'GB' | 'US' = 'GB',
): SearchWebsitesOutput {
  return { request: { query, limit: 3, country }, response: { websites } };
}

/** Commission rates in GB of the fixture retailers. */
export const RETAILER_SITES: Record<string, Website> = {
  'Fell & Trail': {
    id: 'web_fell',
    url: 'https://www.fellandtrail.co.uk',
    best_commission_rate: 9.5,
  },
  'Run Republic': { id: 'web_run', url: 'https://www.runrepublic.co.uk', best_commission_rate: 6 },
  'Cheap Kicks': { id: 'web_cheap', url: 'https://www.cheapkicks.com', best_commission_rate: 1.5 },
  'Trailhead Running': {
    id: 'web_trailhead',
    url: 'https://www.trailheadrunning.com',
    best_commission_rate: 7,
  },
};
