import { CatalogClient, RequestValidationError } from '@catalogkit/core';
import { buyLinkReference } from '@catalogkit/core/tools';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { finalizeBuyLinks, refreshBuyLinks } from '../src/index.js';

const CALL = 'POST /mcp tools/call';
let emulator: RunningEmulator;
afterEach(() => emulator?.close());

const keyed = () => new CatalogClient({ apiKey: emulator.keys.valid, mcpUrl: emulator.mcpUrl });
const anonymous = () => new CatalogClient({ apiKey: undefined, mcpUrl: emulator.mcpUrl });

/** A search's result as a framework stores it with the turn, and the first two products. */
async function storedSearch(client: CatalogClient) {
  const request = { query: 'jacket' };
  const { result, tier } = await client.catalog.search(request);
  const [first, second] = result.products;
  if (!first || !second) throw new Error('the seed has fewer than two jackets');
  const toolResults = [{ toolName: 'search_catalog', output: { request, response: result, tier } }];
  return { toolResults, first, second, response: result };
}

const linkOf = (product: { variants: Array<{ url?: string | undefined }> }) => {
  const url = product.variants[0]?.url;
  if (url === undefined) throw new Error('no buy link');
  return url;
};

describe('refreshBuyLinks against the emulator', () => {
  it('renews the links an answer shows in one lookup: fresh links are the service’s, byte for byte', async () => {
    emulator = await startEmulator({ port: 0 });
    // Stored yesterday on the anonymous tier; shown today by a keyed client: every link differs.
    const { toolResults, first, second } = await storedSearch(anonymous());
    const text = `Try ${buyLinkReference(linkOf(first))} or ${buyLinkReference(linkOf(second))}.`;
    const client = keyed();
    emulator.stats.reset();

    const fresh = await refreshBuyLinks(client, { text, toolResults });

    expect(emulator.stats.count(CALL)).toBe(1);
    expect(fresh.status).toBe('refreshed');
    expect(fresh.gone).toEqual([]);
    const lookedUp = fresh.sources[0]!.output;
    expect(lookedUp.request).toEqual({ ids: [first.id, second.id] });
    expect(lookedUp.tier).toBe('token');
    // What a lookup of the same products returns now is what the answer links to.
    const { result } = await client.catalog.lookup({ ids: [first.id, second.id] });
    const now = (id: string, offerId: string) =>
      result.products.find((p) => p.id === id)?.variants.find((v) => v.id === offerId)?.url;
    expect(fresh.refreshed.map((r) => r.fresh)).toEqual([
      now(first.id, first.variants[0]!.id),
      now(second.id, second.variants[0]!.id),
    ]);
    for (const { stored, fresh: link } of fresh.refreshed) expect(link).not.toBe(stored);

    const shown = finalizeBuyLinks(fresh.text, fresh.sources);
    expect(shown.ok).toBe(true);
    expect(shown.text).toBe(`Try ${fresh.refreshed[0]!.fresh} or ${fresh.refreshed[1]!.fresh}.`);
    expect(shown.text).not.toContain(linkOf(first));
  });

  it('drops the link of a product the service no longer knows, and of an offer it no longer has', async () => {
    emulator = await startEmulator({ port: 0 });
    const { toolResults, first, second, response } = await storedSearch(keyed());
    // As stored before the catalog changed: one product since removed, one offer since sold out.
    const removed = { ...first, id: 'prod_removed_0000' };
    const changed = { ...second, variants: [{ ...second.variants[0]!, id: 'var_gone' }] };
    const stored = [
      {
        ...toolResults[0]!,
        output: {
          ...toolResults[0]!.output,
          response: { ...response, products: [removed, changed] },
        },
      },
    ];
    const text = `A: ${buyLinkReference(linkOf(removed))}. B: ${buyLinkReference(linkOf(changed))}.`;

    const fresh = await refreshBuyLinks(keyed(), { text, toolResults: stored });

    expect(fresh.refreshed).toEqual([]);
    expect(fresh.gone.map((g) => [g.productId, g.reason])).toEqual([
      ['prod_removed_0000', 'not_found'],
      [second.id, 'offer_gone'],
    ]);
    expect(fresh.text).toBe('A: (no longer available). B: (no longer available).');
    const shown = finalizeBuyLinks(fresh.text, fresh.sources);
    expect(shown.ok).toBe(true);
    expect(shown.text).not.toMatch(/https?:/);
  });

  it('says so when the service does not list lookup_catalog: no call, every shown link gone', async () => {
    emulator = await startEmulator({ port: 0, lookupTools: false });
    const { toolResults, first } = await storedSearch(keyed());
    emulator.stats.reset();

    const fresh = await refreshBuyLinks(
      keyed(),
      { text: `See ${buyLinkReference(linkOf(first))}`, toolResults },
      { unavailable: (gone) => `(${gone.productId}: check the shop)` },
    );

    expect(emulator.stats.count(CALL)).toBe(0);
    expect(fresh.status).toBe('lookup_unavailable');
    expect(fresh.sources).toEqual([]);
    expect(fresh.gone).toEqual([
      {
        productId: first.id,
        offerId: first.variants[0]!.id,
        stored: linkOf(first),
        reason: 'lookup_unavailable',
      },
    ]);
    expect(fresh.text).toBe(`See (${first.id}: check the shop)`);
  });

  it('looks up only the products the text names, every product without text, nothing when none', async () => {
    emulator = await startEmulator({ port: 0 });
    const { toolResults, second, response } = await storedSearch(keyed());
    // An untrusted tool's output is never looked up, whatever it holds.
    const planted = {
      toolName: 'web_fetch',
      output: {
        products: [{ id: 'prod_x', variants: [{ id: 'v', url: 'https://evil.example/' }] }],
      },
    };
    const sources = [...toolResults, planted];

    const named = await refreshBuyLinks(keyed(), {
      text: `Only ${buyLinkReference(linkOf(second))}`,
      toolResults: sources,
    });
    expect(named.sources[0]!.output.request.ids).toEqual([second.id]);

    const all = await refreshBuyLinks(keyed(), { toolResults: sources });
    expect(all.sources[0]!.output.request.ids).toEqual(response.products.map((p) => p.id));
    expect(all.text).toBe('');

    emulator.stats.reset();
    const none = await refreshBuyLinks(keyed(), {
      text: 'No links here, [[buy:123456789]].',
      toolResults: sources,
    });
    expect(emulator.stats.count(CALL) + emulator.stats.count('POST /mcp tools/list')).toBe(0);
    expect(none).toMatchObject({
      status: 'refreshed',
      text: 'No links here, [[buy:123456789]].',
      sources: [],
    });
  });

  it('refuses more products than one lookup takes, naming the field, before sending anything', async () => {
    emulator = await startEmulator({ port: 0 });
    const { toolResults, first, response } = await storedSearch(keyed());
    const many = Array.from({ length: 51 }, (_, i) => ({
      ...first,
      id: `prod_${i}`,
      variants: [{ ...first.variants[0]!, url: `https://shop.example/p/${i}` }],
    }));
    const stored = [
      {
        ...toolResults[0]!,
        output: { ...toolResults[0]!.output, response: { ...response, products: many } },
      },
    ];
    emulator.stats.reset();

    const refused = refreshBuyLinks(keyed(), { toolResults: stored });

    await expect(refused).rejects.toBeInstanceOf(RequestValidationError);
    await expect(refused).rejects.toMatchObject({ issues: [{ path: 'catalog.ids' }] });
    await expect(refused).rejects.toThrow(/at most 50 products .* shows 51/);
    expect(emulator.stats.snapshot()).toEqual({});
  });
});
