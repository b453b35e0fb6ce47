import type { Website } from '@catalogkit/core';
import { buyLinkReference, formatCatalogResult, formatWebsites } from '@catalogkit/core/tools';
import { describe, expect, it } from 'vitest';
import { readOffers, readWebsites } from '../src/shopper/model-view.js';
import { catalogOutput, RETAILER_SITES, TRICKY_URL, websitesOutput } from './fixtures.js';

// The texts come from core's own formatters, so a change of the model's view breaks these tests.
describe('readOffers', () => {
  const offers = readOffers(formatCatalogResult(catalogOutput()));

  it('reads every offer, single- and multi-variant products alike', () => {
    expect(offers.map((offer) => `${offer.productId} ${offer.retailer}`)).toEqual([
      'prod_a Fell & Trail',
      'prod_b Fell & Trail',
      'prod_b Run Republic',
      'prod_c Cheap Kicks',
      'prod_d Run Republic',
      'prod_e Trailhead Running',
    ]);
  });

  it('reads title, price in minor units, retailer and availability', () => {
    expect(offers[0]).toMatchObject({
      productTitle: 'Kestrel Ridge 3 Trail Running Shoe',
      price: { amount: 10999, currency: 'USD' },
      retailer: 'Fell & Trail',
      available: true,
    });
    expect(offers[4]).toMatchObject({ productId: 'prod_d', available: false });
  });

  it('reads sale prices and prices with thousands separators', () => {
    const output = catalogOutput();
    const first = output.response.products[0]?.variants[0];
    if (first) {
      first.price = { amount: 123456, currency: 'USD' };
      first.list_price = { amount: 150000, currency: 'USD' };
    }
    expect(readOffers(formatCatalogResult(output))[0]?.price).toEqual({
      amount: 123456,
      currency: 'USD',
    });
  });

  it('reads the retailer’s website id when the line shows one, and no id when it does not', () => {
    expect(offers.map((offer) => offer.websiteId)).toEqual([
      'web_fell',
      undefined,
      undefined,
      undefined,
      undefined,
      'web_trailhead',
    ]);
  });

  it('reads the retailer and its website id next to a commission', () => {
    const output = catalogOutput();
    const first = output.response.products[0]?.variants[0];
    if (first) first.placement = { commission: { percentage: { value: 8.1 } } };
    expect(readOffers(formatCatalogResult(output))[0]).toMatchObject({
      retailer: 'Fell & Trail',
      websiteId: 'web_fell',
      commissionPercent: 8.1,
      buyUrl: buyLinkReference(TRICKY_URL),
    });
  });

  it('reads the buy reference (the default), or with inline links the link byte for byte', () => {
    expect(offers[0]?.buyUrl).toBe(buyLinkReference(TRICKY_URL));
    expect(readOffers(formatCatalogResult(catalogOutput(), 'inline'))[0]?.buyUrl).toBe(TRICKY_URL);
  });

  it('reads the commission of a placement when the text shows one', () => {
    const output = catalogOutput();
    const first = output.response.products[0]?.variants[0];
    if (first) first.placement = { commission: { percentage: { value: 8 } } };
    expect(readOffers(formatCatalogResult(output))[0]?.commissionPercent).toBe(8);
  });

  it('reads other currencies', () => {
    const output = catalogOutput();
    const first = output.response.products[0]?.variants[0];
    if (first) first.price = { amount: 9950, currency: 'EUR' };
    expect(readOffers(formatCatalogResult(output))[0]?.price).toEqual({
      amount: 9950,
      currency: 'EUR',
    });
  });

  it('reads nothing from text without product lines', () => {
    expect(
      readOffers('0 products for "x".\nNothing matched; try broader or different words.'),
    ).toEqual([]);
  });
});

describe('readWebsites', () => {
  it('reads id, address and commission rate of each website', () => {
    const sites = [RETAILER_SITES['Fell & Trail'], RETAILER_SITES['Cheap Kicks']].flatMap((site) =>
      site ? [site] : [],
    );
    expect(readWebsites(formatWebsites(websitesOutput('fell', sites)))).toEqual([
      { websiteId: 'web_fell', url: 'https://www.fellandtrail.co.uk', commissionPercent: 9.5 },
      { websiteId: 'web_cheap', url: 'https://www.cheapkicks.com', commissionPercent: 1.5 },
    ]);
  });

  it('reads the retailer’s name when the service sends one', () => {
    const text = formatWebsites(
      websitesOutput('fell', [
        { ...RETAILER_SITES['Fell & Trail'], name: 'Fell & Trail' } as Website,
      ]),
    );
    expect(readWebsites(text)).toEqual([
      {
        websiteId: 'web_fell',
        name: 'Fell & Trail',
        url: 'https://www.fellandtrail.co.uk',
        commissionPercent: 9.5,
      },
    ]);
  });

  it('counts a website without a rate as 0%', () => {
    const text = formatWebsites(websitesOutput('x', [{ id: 'web_x', url: 'https://x.test' }]));
    expect(readWebsites(text)[0]?.commissionPercent).toBe(0);
  });
});
