import { describe, expect, it } from 'vitest';
import { DEFAULT_SHOPPING_REQUEST, parseShoppingRequest } from '../src/shopper/request.js';

describe('parseShoppingRequest', () => {
  it('reads the demo request', () => {
    expect(parseShoppingRequest(DEFAULT_SHOPPING_REQUEST)).toEqual({
      text: DEFAULT_SHOPPING_REQUEST,
      productQuery: 'trail running shoes',
      maxPriceMinor: 12000,
      country: 'GB',
      collectionId: 'col_summer',
      count: 2,
    });
  });

  it('reads other budgets, counts, countries and aliases', () => {
    const request = parseShoppingRequest(
      'find hiking boots below $89.50 in UK and add the top 3 to col_gifts',
    );
    expect(request).toMatchObject({
      productQuery: 'hiking boots',
      maxPriceMinor: 8950,
      country: 'GB',
      count: 3,
      collectionId: 'col_gifts',
    });
  });

  it('leaves out what the request does not say', () => {
    const request = parseShoppingRequest('find a yoga mat');
    expect(request).toEqual({ text: 'find a yoga mat', productQuery: 'a yoga mat', count: 1 });
  });

  it('ignores two-letter words that are not country codes', () => {
    expect(parseShoppingRequest('find socks in XX sizes').country).toBeUndefined();
  });
});
