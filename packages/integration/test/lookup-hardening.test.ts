import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CatalogClient, ConfigurationError, RequestValidationError } from '@catalogkit/core';
import {
  createCatalogToolList,
  defineCatalogTool,
  type LookupCatalogInput,
} from '@catalogkit/core/tools';
import { CATALOG_RESULT_TOOLS, collectBuyLinks, resolveBuyLinks } from '@catalogkit/links';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';

// The red team's findings on lookup_catalog / get_product (issue 37), each against a real
// loopback service that answers whatever the scenario returns.

type Answer = (rpc: { method: string; params: { name?: string } }) => unknown;
let close: (() => void) | undefined;
afterEach(() => close?.());

/** A JSON-RPC service that lists the three tools and answers every call with `answer`. */
async function service(answer: Answer) {
  const sent: { method: string; params: { name?: string; arguments?: unknown } }[] = [];
  const server = createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    const rpc = JSON.parse(body);
    sent.push(rpc);
    const tools = ['search_catalog', 'lookup_catalog', 'get_product'].map((name) => ({ name }));
    const result = rpc.method === 'tools/list' ? { tools } : answer(rpc);
    response.writeHead(200, { 'content-type': 'application/json', 'x-ucp-auth-tier': 'token' });
    response.end(JSON.stringify({ jsonrpc: '2.0', id: rpc.id, result }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () => {
    server.closeAllConnections();
    server.close();
  };
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new CatalogClient({ apiKey: 'ck_test_x', mcpUrl: origin, maxRetries: 0 });
  const serviceTools = await client.catalog.tools();
  return { client, serviceTools, sent };
}

const structured = (content: unknown) => ({
  content: [{ type: 'text', text: JSON.stringify(content) }],
  structuredContent: content,
});
const offer = (id: string, url: string) => ({
  id,
  url,
  price: { amount: 1000, currency: 'USD' },
});
const product = (id: string, variants: unknown[]) => ({ id, title: `P ${id}`, variants });

/** An application's own tool that happens to be called `name`. */
const appTool = (name: string) =>
  defineCatalogTool({
    name,
    description: () => 'Reads a product page the shopper pasted.',
    inputSchema: z.strictObject({ url: z.string() }),
    mutates: false,
    execute: async ({ url }) => ({ request: { url }, response: { product: { id: 'x', url } } }),
    toModelOutput: () => 'page',
  });

describe('F1 + F2: the lookup tools’ names always mean the service’s tools', () => {
  it('a custom tool named lookup_catalog or get_product is refused, listed or not', async () => {
    const { client } = await service(() => ({}));
    for (const name of ['get_product', 'lookup_catalog']) {
      for (const serviceTools of [undefined, ['search_catalog'], [name]]) {
        expect(() =>
          createCatalogToolList({ client, serviceTools, tools: [appTool(name)] }),
        ).toThrow(
          new RegExp(`tools\\.0\\.name: ${name} is reserved for the catalog service's own tool`),
        );
      }
    }
    expect(() => createCatalogToolList({ client, tools: [appTool('get_product')] })).toThrow(
      ConfigurationError,
    );
    // Any other name is the app's own tool, untouched; and the default trust is the catalog's.
    const [tool] = createCatalogToolList({
      client,
      tools: [appTool('read_page')],
      include: ['read_page'],
    });
    expect(tool?.description).toBe('Reads a product page the shopper pasted.');
    expect(CATALOG_RESULT_TOOLS).toEqual(['search_catalog', 'lookup_catalog', 'get_product']);
  });
});

describe('F3: a get_product answer’s products are its one product', () => {
  it('bounds product.variants even with a products[] beside it', async () => {
    const variants = Array.from({ length: 30_000 }, (_, i) =>
      offer(`v${i}`, `https://go.example/r/${i}`),
    );
    const { client, serviceTools } = await service(() =>
      structured({ product: product('big', variants), products: [] }),
    );
    const [get] = createCatalogToolList({ client, serviceTools, include: ['get_product'] });
    if (get?.originalName !== 'get_product') throw new Error('get_product not built');
    const output = await get.execute({ product_id: 'big', selected: null, preferences: null });
    expect(output.response.product?.variants).toHaveLength(100);
    expect(output.response).not.toHaveProperty('products');
    expect(get.toModelOutput(output).length).toBeLessThan(10_000);
    expect(collectBuyLinks([{ toolName: 'get_product', output }])).toHaveLength(100);
  });

  it('the view and the trusted links read the same product; a stray products[] is ignored', async () => {
    const { client, serviceTools } = await service(() =>
      structured({
        product: product('shown', [offer('shown_v1', 'https://go.example/r/shown')]),
        products: [product('other', [offer('other_v1', 'https://go.example/r/stray')])],
      }),
    );
    const [get] = createCatalogToolList({ client, serviceTools, include: ['get_product'] });
    if (get?.originalName !== 'get_product') throw new Error('get_product not built');
    const output = await get.execute({ product_id: 'shown', selected: null, preferences: null });
    const sources = [{ toolName: 'get_product', output }];
    expect(collectBuyLinks(sources)).toEqual(['https://go.example/r/shown']);
    const text = get.toModelOutput(output);
    const resolved = resolveBuyLinks(text, sources);
    expect(resolved.unresolved).toEqual([]);
    expect(resolved.text).toContain('https://go.example/r/shown');
  });
});

describe('F5: the get_product option line is bounded', () => {
  it('shows at most 20 values, then how many more; a label that is not text is skipped', async () => {
    const values = [
      { label: { x: 1 } },
      ...Array.from({ length: 5000 }, (_, i) => ({ label: `L${i}`, available: i !== 1 })),
    ];
    const { client, serviceTools } = await service(() =>
      structured({
        product: {
          ...product('p', [offer('p_v1', 'https://go.example/r/p')]),
          options: [{ name: 'Color', values }],
        },
      }),
    );
    const [get] = createCatalogToolList({ client, serviceTools, include: ['get_product'] });
    if (get?.originalName !== 'get_product') throw new Error('get_product not built');
    const text = get.toModelOutput(
      await get.execute({ product_id: 'p', selected: null, preferences: null }),
    );
    const line = text.split('\n').find((each) => each.startsWith('Color:')) ?? '';
    expect(line).toMatch(/^Color: L0, L1 \(out of stock\), L2, .*L19 and 4980 more$/);
    expect(text).not.toContain('[object Object]');
  });
});

describe('F6: a lookup keeps no more products than it asked for', () => {
  it('one id answered with 300 products x 110 offers keeps 1 product with 100 offers', async () => {
    const products = Array.from({ length: 300 }, (_, p) =>
      product(
        `p${p}`,
        Array.from({ length: 110 }, (_, v) =>
          offer(`p${p}_v${v}`, `https://go.example/r/${p}/${v}`),
        ),
      ),
    );
    const { client, serviceTools } = await service(() => structured({ products }));
    const [lookup] = createCatalogToolList({ client, serviceTools, include: ['lookup_catalog'] });
    if (lookup?.originalName !== 'lookup_catalog') throw new Error('lookup_catalog not built');
    const one = await lookup.execute({ product_ids: ['p1'], urls: null });
    expect(one.response.products).toHaveLength(1);
    expect(one.response.products[0]?.variants).toHaveLength(100);
    const three = await client.catalog.lookup({
      ids: ['p1', 'p2'],
      urls: ['https://shop.example/p/3'],
    });
    expect(three.result.products).toHaveLength(3);
  });
});

describe('F9: the lookup tools’ inputs are bounded and errors name the model’s fields', () => {
  it('too many or no ids: the message names product_ids and urls; nothing is sent', async () => {
    const { client, serviceTools, sent } = await service(() => structured({ products: [] }));
    const [lookup] = createCatalogToolList({ client, serviceTools, include: ['lookup_catalog'] });
    if (lookup?.originalName !== 'lookup_catalog') throw new Error('lookup_catalog not built');
    const cases: [LookupCatalogInput, RegExp][] = [
      [
        { product_ids: Array.from({ length: 51 }, (_, i) => `p${i}`), urls: null },
        /^Invalid arguments: \(input\): give at most 50 product_ids and urls together\./,
      ],
      [
        { product_ids: null, urls: null },
        /^Invalid arguments: \(input\): give at least one product_id in product_ids or one URL in urls\./,
      ],
    ];
    for (const [input, message] of cases) {
      const error = await lookup.execute(input).catch((caught: unknown) => caught);
      expect(lookup.errorToModelOutput(error)).toMatch(message);
    }
    expect(sent.filter((rpc) => rpc.method === 'tools/call')).toEqual([]);
  });

  it('refuses oversized ids, labels, selections and preferences, naming the field', async () => {
    const { client, sent } = await service(() => structured({}));
    const long = 'x'.repeat(1001);
    const many = Array.from({ length: 51 }, (_, i) => ({ name: `o${i}`, label: 'a' }));
    const cases: [unknown, string][] = [
      [() => client.catalog.lookup({ ids: [long] }), 'catalog.ids.0'],
      [
        () => client.catalog.lookup({ urls: [`https://shop.example/${long}${long}${long}`] }),
        'catalog.urls.0',
      ],
      [() => client.catalog.getProduct({ id: long }), 'catalog.id'],
      [
        () => client.catalog.getProduct({ id: 'p', selected: [{ name: 'Color', label: long }] }),
        'catalog.selected.0.label',
      ],
      [() => client.catalog.getProduct({ id: 'p', selected: many }), 'catalog.selected'],
      [
        () => client.catalog.getProduct({ id: 'p', preferences: many.map((o) => o.name) }),
        'catalog.preferences',
      ],
    ];
    for (const [call, path] of cases) {
      const error = await (call as () => Promise<unknown>)().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).issues.map((issue) => issue.path)).toContain(path);
    }
    expect(sent.filter((rpc) => rpc.method === 'tools/call')).toEqual([]);
  });

  it('an IP or localhost page URL is refused with a clear message naming urls', async () => {
    const { client, serviceTools } = await service(() => structured({ products: [] }));
    const [lookup] = createCatalogToolList({ client, serviceTools, include: ['lookup_catalog'] });
    if (lookup?.originalName !== 'lookup_catalog') throw new Error('lookup_catalog not built');
    for (const url of [
      'https://203.0.113.7/p',
      'https://[2001:db8::1]/p',
      'http://localhost:3000/p',
    ]) {
      const error = await lookup
        .execute({ product_ids: null, urls: [url] })
        .catch((caught: unknown) => caught);
      expect(lookup.errorToModelOutput(error)).toMatch(
        /urls\.0: must be a retailer page on a public host name, not an IP address or localhost/,
      );
    }
    const error = await lookup
      .execute({ product_ids: null, urls: ['https://shop.example./p'] })
      .catch((caught: unknown) => caught);
    expect(lookup.errorToModelOutput(error)).toMatch(/urls\.0: has an invalid host name/);
  });
});
