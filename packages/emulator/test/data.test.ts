import { COUNTRY_CODES, ProductSchema } from '@catalogkit/core/schemas';
import { describe, expect, it } from 'vitest';
import { generateCatalogData } from '../src/data/index.js';
import { catalogData } from '../src/index.js';

// Generous: generating two more catalogs is CPU-bound, and other suites share the cores.
describe('generated catalog', { timeout: 120_000 }, () => {
  const data = catalogData(42);

  it('is generated once per seed and shared', () => {
    expect(catalogData(42)).toBe(data);
  });

  it('is deterministic: a fresh generation with the same seed is identical, another seed differs', () => {
    const again = generateCatalogData(42);
    expect(again).not.toBe(data);
    // Compared as JSON text: a deep toEqual over 5,000 products took seconds under load.
    expect(JSON.stringify(again.websites) === JSON.stringify(data.websites)).toBe(true);
    expect(JSON.stringify(again.products) === JSON.stringify(data.products)).toBe(true);
    const other = catalogData(7);
    expect(other.websites.map((w) => w.id)).not.toEqual(data.websites.map((w) => w.id));
  });

  it('has at least 500 websites with unique ids, names and domains', () => {
    expect(data.websites.length).toBeGreaterThanOrEqual(500);
    for (const field of ['id', 'name', 'domain'] as const) {
      expect(new Set(data.websites.map((w) => w[field])).size).toBe(data.websites.length);
    }
    for (const website of data.websites.slice(0, 50)) {
      expect(website.url).toBe(`https://www.${website.domain}`);
    }
  });

  it('has at least 30 searchable categories, each with a ranked top 1,000 and sellers outside it', () => {
    const searchable = [...data.categories.values()].filter((category) => category.searchable);
    expect(searchable.length).toBeGreaterThanOrEqual(30);
    for (const category of searchable) {
      const top = data.categoryTop.get(category.slug) ?? [];
      expect(top).toHaveLength(1000);
      const sellers = data.websites.filter((w) => w.categories.includes(category.slug));
      expect(sellers.length).toBeGreaterThan(1000);
      expect(top.every((index) => data.websites[index]?.categories.includes(category.slug))).toBe(
        true,
      );
    }
  });

  it('gives every website a commission rate for each of the 19 country codes', () => {
    expect(COUNTRY_CODES).toHaveLength(19);
    for (const website of data.websites) expect(website.commission).toHaveLength(19);
    const scoped = data.websites.filter((w) => new Set(w.commission).size > 2);
    expect(scoped.length).toBeGreaterThan(100);
  });

  it('has at least 5,000 valid products with brands, categories and one variant per retailer', () => {
    expect(data.products.length).toBeGreaterThanOrEqual(5000);
    const brandIds = new Set(data.brands.map((brand) => brand.id));
    // Problems are collected and asserted once: one expect per product and variant (tens of
    // thousands) made this test take 25 s on a loaded machine.
    const problems: string[] = [];
    for (const product of data.products) {
      if (!ProductSchema.safeParse(product).success) problems.push(`${product.id}: schema`);
      if (!brandIds.has(product.metadata.brand_id)) problems.push(`${product.id}: brand`);
      if (!data.categories.has(product.categories[0]?.value ?? '')) {
        problems.push(`${product.id}: category`);
      }
      const websites = product.variants.map((variant) => variant.metadata.website_id);
      if (new Set(websites).size !== websites.length) problems.push(`${product.id}: retailers`);
      for (const variant of product.variants) {
        const website = data.websiteById.get(variant.metadata.website_id);
        const seller = { name: website?.name, links: [{ type: 'website', url: website?.url }] };
        if (website === undefined) problems.push(`${variant.id}: website`);
        if (!variant.url.startsWith(`${website?.url}/`)) problems.push(`${variant.id}: url`);
        if (JSON.stringify(variant.seller) !== JSON.stringify(seller)) {
          problems.push(`${variant.id}: seller`);
        }
        if (!Number.isInteger(variant.price.amount)) problems.push(`${variant.id}: price`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('has plenty of trail running shoes under and over $120 across many retailers', () => {
    const trail = data.products.filter((p) => p.categories[0]?.value === 'trail-running-shoes');
    const variants = trail.flatMap((p) => p.variants);
    expect(variants.filter((v) => v.price.amount < 12000).length).toBeGreaterThan(100);
    expect(variants.filter((v) => v.price.amount > 12000).length).toBeGreaterThan(100);
    expect(new Set(variants.map((v) => v.metadata.website_id)).size).toBeGreaterThan(100);
    expect(variants.filter((v) => v.metadata.seller_country === 'GB').length).toBeGreaterThan(20);
  });

  it('builds buy links with characters a careless client would re-encode', () => {
    const url = data.products[0]?.variants[0]?.url ?? '';
    expect(url).toContain('%2F');
    expect(url).toContain('+');
    expect(url).toContain('&');
  });
});
