import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index.js';
import { start } from './helpers.js';
import { searchCatalog } from './mcp-helpers.js';

interface SearchedProduct {
  id: string;
  title: string;
  media?: Array<{ type?: string; url: string; alt_text?: string }>;
}

async function searchProducts(mcpUrl: string, headers: Record<string, string> = {}) {
  const call = await searchCatalog(mcpUrl, { query: 'trail running shoes' }, headers);
  const content = call.message.result?.structuredContent as { products: SearchedProduct[] };
  return content.products;
}

function firstImage(product: SearchedProduct | undefined): string {
  const url = product?.media?.[0]?.url;
  if (!url) throw new Error(`no image on ${product?.id}`);
  return url;
}

describe('product images', () => {
  it('points every product image at the emulator itself, for anonymous and keyed callers', async () => {
    const emulator = await start();
    const origin = new URL(emulator.baseUrl).origin;
    const anonymous: Record<string, string> = {};
    for (const headers of [anonymous, { 'x-api-key': emulator.keys.valid }]) {
      const products = await searchProducts(emulator.mcpUrl, headers);
      expect(products.length).toBeGreaterThan(1);
      for (const product of products) {
        expect(product.media).toEqual([
          {
            type: 'image',
            url: `${origin}/media/products/${product.id}.svg`,
            alt_text: product.title,
          },
        ]);
      }
    }
  });

  it('serves each image over HTTP as SVG, the same every time, and different per product', async () => {
    const emulator = await start();
    const [first, second] = await searchProducts(emulator.mcpUrl);
    const responses = await Promise.all(
      [first, first, second].map((product) => fetch(firstImage(product))),
    );
    for (const response of responses) {
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    }
    const [a, again, b] = await Promise.all(responses.map((response) => response.text()));
    expect(a).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="800" height="600"/);
    expect(a).toMatch(/<\/svg>$/);
    expect(again).toBe(a);
    expect(b).not.toBe(a);
    // The picture is labelled with the product it shows (escaped for XML).
    expect(a).toContain(`aria-label="${first?.title.replace(/&/g, '&#38;')}"`);
  });

  it('needs no key; an unknown product or another file type is 404', async () => {
    const emulator = await start();
    const [product] = await searchProducts(emulator.mcpUrl);
    const origin = new URL(emulator.baseUrl).origin;
    const ok = await fetch(firstImage(product));
    expect(ok.status).toBe(200);
    await ok.arrayBuffer();
    for (const path of ['/media/products/prod_none.svg', `/media/products/${product?.id}.png`]) {
      const missing = await fetch(`${origin}${path}`);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toEqual({ detail: 'Not Found' });
    }
  });

  it('uses the address asked for when embedded without a server (app.fetch)', async () => {
    const app = createEmulator();
    const response = await app.fetch(
      new Request('http://shop.example:8080/ucp/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name: 'search_catalog',
            arguments: { meta: null, catalog: { query: 'sandal' } },
          },
        }),
      }),
    );
    const text = await response.text();
    const json = text.startsWith('{') ? text : (text.match(/^data: (.+)$/m)?.[1] ?? '{}');
    const { result } = JSON.parse(json) as {
      result: { structuredContent: { products: SearchedProduct[] } };
    };
    const url = firstImage(result.structuredContent.products[0]);
    expect(url).toMatch(/^http:\/\/shop\.example:8080\/media\/products\/prod_\w+\.svg$/);
    const image = await app.fetch(new Request(url));
    expect(image.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
  });
});

describe('the caption of a product picture', () => {
  it('is whole words of the title on one line, for every product of the catalog', async () => {
    const { catalogData } = await import('../src/data/index.js');
    const { caption } = await import('../src/media.js');
    const products = [...catalogData().productById.values()];
    expect(products.length).toBeGreaterThan(10);
    const cut = products.filter((product) => {
      const { noun } = caption(product);
      const words = product.title.split(/\s+/);
      const own = noun.split(' ');
      // The caption's words are the title's last words, each whole.
      const whole = own.every((word, i) => word === words[words.length - own.length + i]);
      return noun.length > 26 || !whole;
    });
    expect(cut.map((product) => `${product.title} -> ${caption(product).noun}`)).toEqual([]);
  });
});
