import { describe, expect, it } from 'vitest';
import { productIdsToSave } from '../src/scripted-model.js';

// A search answer as the compact view lists it: each product's id, then its price.
const SEARCH = [
  '3 products for "trail shoes".',
  '1. Summit 6 Trail Running Shoe (prod_a): $129.99',
  '2. Ridge Runner (prod_b): $1,049.00',
  '3. Pathfinder Lite (prod_c): $79.50',
].join('\n');

describe("the scripted shopper saves what the shopper's words say", () => {
  it('"the first one" and "it" save one product', () => {
    expect(productIdsToSave('add the first one to my summer collection', SEARCH)).toEqual([
      'prod_a',
    ]);
    expect(productIdsToSave('save it', SEARCH)).toEqual(['prod_a']);
  });

  it('"the first two" saves two, "all" every one', () => {
    expect(productIdsToSave('add the first two to my Summer collection', SEARCH)).toEqual([
      'prod_a',
      'prod_b',
    ]);
    expect(productIdsToSave('add all of them', SEARCH)).toEqual(['prod_a', 'prod_b', 'prod_c']);
  });

  it('"the cheapest" saves the lowest price, with thousands separators read', () => {
    expect(productIdsToSave('add the cheapest', SEARCH)).toEqual(['prod_c']);
  });

  it('nothing searched: nothing to save', () => {
    expect(productIdsToSave('add the first one', '')).toEqual([]);
  });
});
