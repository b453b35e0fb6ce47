import {
  type AnyCatalogTool,
  type CatalogToolsOptions,
  createCatalogToolList,
  type SearchCatalogOutput,
  type SearchWebsitesOutput,
  type UpdateCollectionOutput,
} from '@catalogkit/core';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { resolveBuyLinks } from '@catalogkit/links';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyLinksOf, rawCatalogSearch } from '../bench/raw-catalog-search.js';

let emulator: RunningEmulator;
/** Every text a model was shown in this file, checked for keys at the end. */
const modelTexts: string[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, mcpResponse: 'json' });
});
afterAll(async () => {
  await emulator?.close();
});

function toolsFor(apiKey: string | undefined, options: CatalogToolsOptions = {}) {
  const tools = createCatalogToolList({
    clientOptions: {
      baseUrl: emulator.baseUrl,
      mcpUrl: emulator.mcpUrl,
      maxRetries: 0,
      ...(apiKey ? { apiKey } : {}),
    },
    ...options,
  });
  const byName = (name: string) =>
    tools.find((tool) => tool.originalName === name) as AnyCatalogTool;
  return {
    searchCatalog: byName('search_catalog'),
    searchWebsites: byName('search_websites'),
    updateCollection: byName('update_collection'),
  };
}

/** Runs a tool as an adapter does: the model's text for the result, or for the failure. */
async function modelView(
  tool: AnyCatalogTool,
  input: unknown,
): Promise<{ output?: unknown; text: string }> {
  try {
    const output = await tool.execute(input as never);
    const text = tool.toModelOutput(output as never);
    modelTexts.push(text);
    return { output, text };
  } catch (error) {
    const text = tool.errorToModelOutput(error);
    if (text === undefined) throw error;
    modelTexts.push(text);
    return { text };
  }
}

const catalogInput = { query: 'trail running shoes', limit: 5, cursor: null, placements: null };
const websitesInput = { query: 'outdoor', limit: null, category_ids: null, country: null };
const noChange = {
  name: null,
  description: null,
  add_clauses: null,
  replace_clauses: null,
  remove_clause_ids: null,
};

describe('search_catalog against the emulator', () => {
  it('by default gives the model a reference per buy link of the raw answer and no URL; each resolves to its link', async () => {
    const { searchCatalog } = toolsFor(emulator.keys.valid, {
      defaults: { placements: ['affiliate'] },
    });
    const { output, text } = await modelView(searchCatalog, catalogInput);
    const links = buyLinksOf((output as SearchCatalogOutput).response);
    expect(links.length).toBeGreaterThan(4);
    expect(text).not.toMatch(/https?:/i);
    const resolution = resolveBuyLinks(text, [{ toolName: 'search_catalog', output }]);
    expect(resolution.unresolved).toEqual([]);
    expect(new Set(resolution.resolved.map(({ link }) => link))).toEqual(new Set(links));
  });

  it("with buyLinks: 'inline' gives the model every buy link of the raw answer, byte for byte, with commission in the token tier", async () => {
    const { searchCatalog } = toolsFor(emulator.keys.valid, {
      defaults: { placements: ['affiliate'] },
      buyLinks: 'inline',
    });
    const { output, text } = await modelView(searchCatalog, catalogInput);
    const raw = await rawCatalogSearch(emulator.mcpUrl, emulator.keys.valid, {
      query: catalogInput.query,
      pagination: { limit: 5 },
      placements: ['affiliate'],
    });
    const links = buyLinksOf(raw.structuredContent);
    expect(links.length).toBeGreaterThan(4);
    for (const link of links) expect(text).toContain(link);
    // The application gets the full parsed result: same links, unknown fields kept.
    const full = output as SearchCatalogOutput;
    expect(buyLinksOf(full.response)).toEqual(links);
    expect(full.tier).toBe('token');
    expect(full.request.placements).toEqual(['affiliate']);
    expect(full.response.products[0]?.variants[0]?.placement).toBeDefined();
    expect(text).toMatch(/ \| \d+(\.\d+)?% \| https:/);
    // Each offer's line carries its retailer's website id, which clauses select by: as a cell,
    // or inside the buy link printed on it (then the view does not print it twice).
    for (const variant of full.response.products.flatMap((product) => product.variants)) {
      const websiteId = (variant.metadata as { website_id?: string } | undefined)?.website_id;
      const line = text.split('\n').find((candidate) => candidate.includes(variant.url ?? '?'));
      expect(websiteId).toMatch(/^web_/);
      const cell = `${variant.seller?.name} | ${websiteId} | `;
      if (variant.url?.includes(websiteId ?? '?')) expect(line).not.toContain(cell);
      else expect(line).toContain(cell);
      expect(line).toContain(websiteId);
    }
    expect(text).not.toContain('not monetized');
  });

  it('says links are not monetized in the anonymous tier', async () => {
    const { searchCatalog } = toolsFor(undefined, { include: ['search_catalog'] });
    const { output, text } = await modelView(searchCatalog, {
      ...catalogInput,
      placements: ['affiliate'],
    });
    expect((output as SearchCatalogOutput).tier).toBe('anonymous');
    expect(text).toContain('Buy links are not monetized (anonymous tier: no valid API key).');
    expect(text).toContain('Commission data needs a valid API key');
  });

  it('applies the limit default when the model gives null, and the model’s value otherwise', async () => {
    const { searchCatalog } = toolsFor(emulator.keys.valid, { defaults: { limit: 3 } });
    const byDefault = (await searchCatalog.execute({
      ...catalogInput,
      limit: null,
    } as never)) as SearchCatalogOutput;
    expect(byDefault.request.pagination?.limit).toBe(3);
    expect(byDefault.response.products).toHaveLength(3);
    const given = (await searchCatalog.execute({
      ...catalogInput,
      limit: 2,
    } as never)) as SearchCatalogOutput;
    expect(given.response.products).toHaveLength(2);
  });

  it('pages with the cursor it printed', async () => {
    const { searchCatalog } = toolsFor(emulator.keys.valid);
    const { output, text } = await modelView(searchCatalog, { ...catalogInput, limit: 2 });
    const cursor = /cursor "([^"]+)"/.exec(text)?.[1];
    expect(cursor).toBeDefined();
    const next = (await searchCatalog.execute({
      ...catalogInput,
      limit: 2,
      cursor,
    } as never)) as SearchCatalogOutput;
    const firstIds = (output as SearchCatalogOutput).response.products.map((product) => product.id);
    expect(next.response.products.map((product) => product.id)).not.toEqual(firstIds);
  });

  it('names the field when the query is empty, before sending', async () => {
    const { searchCatalog } = toolsFor(emulator.keys.valid);
    const { text } = await modelView(searchCatalog, { ...catalogInput, query: '  ' });
    expect(text).toBe(
      'Invalid arguments: query: must not be empty; give what the shopper wants, in plain words. Fix these fields and call the tool again.',
    );
  });

  it('tells the model when the daily rate limit resets', async () => {
    const limited = await startEmulator({ port: 0, rateLimits: { mcpToken: 1 } });
    try {
      const searchCatalog = createCatalogToolList({
        clientOptions: {
          baseUrl: limited.baseUrl,
          mcpUrl: limited.mcpUrl,
          apiKey: limited.keys.valid,
        },
        include: ['search_catalog'],
      })[0]!;
      await modelView(searchCatalog, catalogInput);
      const { text } = await modelView(searchCatalog, catalogInput);
      const tomorrow = new Date();
      tomorrow.setUTCHours(24, 0, 0, 0);
      expect(text).toContain(
        'Rate limit of the catalog service reached (limits are daily, per UTC day).',
      );
      expect(text).toContain(`It resets at ${tomorrow.toISOString().slice(0, 16)}Z`);
    } finally {
      await limited.close();
    }
  });
});

describe('search_websites against the emulator', () => {
  it('lists websites with ids and applies the country default', async () => {
    const { searchWebsites } = toolsFor(emulator.keys.valid, {
      defaults: { country: 'GB', limit: 4 },
    });
    const { output, text } = await modelView(searchWebsites, websitesInput);
    const full = output as SearchWebsitesOutput;
    expect(full.request).toEqual({ query: 'outdoor', limit: 4, country: 'GB' });
    expect(full.response.websites.length).toBeGreaterThan(0);
    expect(text).toContain('(commission rates for GB)');
    for (const website of full.response.websites)
      expect(text).toContain(`website_id ${website.id}`);
  });

  it('names the field of an unknown category (422)', async () => {
    const { searchWebsites } = toolsFor(emulator.keys.valid);
    const { text } = await modelView(searchWebsites, {
      ...websitesInput,
      category_ids: ['no-such-category'],
    });
    expect(text).toMatch(
      /^The catalog service refused the input: category_ids(\.0)?: .+\. Fix these fields and try again\.$/,
    );
  });

  it('says the credits are used up, or a payment is required (402)', async () => {
    const credits = await modelView(
      toolsFor(emulator.keys.creditsExhausted).searchWebsites,
      websitesInput,
    );
    expect(credits.text).toMatch(
      /used up its free credits; the account owner must add a payment method/,
    );
    const payment = await modelView(
      toolsFor(emulator.keys.paymentRequired).searchWebsites,
      websitesInput,
    );
    expect(payment.text).toMatch(
      /asks for a payment of 0\.25 USD before answering; the application must approve the payment/,
    );
  });

  it('says the key is invalid (401) without showing it', async () => {
    const { text } = await modelView(toolsFor(emulator.keys.invalid).searchWebsites, websitesInput);
    expect(text).toMatch(
      /^The catalog API key is invalid; the application owner must configure a valid key\./,
    );
  });
});

describe('update_collection against the emulator', () => {
  it('adds a clause with ids found by the searches and shows the collection', async () => {
    const { searchCatalog, searchWebsites, updateCollection } = toolsFor(emulator.keys.valid);
    const products = (await searchCatalog.execute(catalogInput as never)) as SearchCatalogOutput;
    const websites = (await searchWebsites.execute(websitesInput as never)) as SearchWebsitesOutput;
    const productId = products.response.products[0]!.id;
    const websiteId = websites.response.websites[0]!.id;
    const clause = {
      brand_ids: [],
      website_ids: [websiteId],
      category_ids: [],
      product_ids: [productId],
    };
    const { output, text } = await modelView(updateCollection, {
      ...noChange,
      collection_id: 'col_summer',
      add_clauses: [clause],
    });
    const full = output as UpdateCollectionOutput;
    expect(full.request).toEqual({ collectionId: 'col_summer', update: { add_clauses: [clause] } });
    const added = full.response.clauses?.at(-1);
    expect(added).toMatchObject(clause);
    expect(text).toContain(
      `- clause_id ${added?.clause_id} | website_ids ${websiteId} | product_ids ${productId}`,
    );
  });

  it('says which clause id is unknown (422)', async () => {
    const { text } = await modelView(toolsFor(emulator.keys.valid).updateCollection, {
      ...noChange,
      collection_id: 'col_summer',
      remove_clause_ids: ['cl_nope'],
    });
    expect(text).toBe(
      "The catalog service refused the input: remove_clause_ids.0: Unknown clause id 'cl_nope' in collection 'col_summer'. Fix these fields and try again.",
    );
  });

  it('says the collection is unknown (404), also for another user’s collection', async () => {
    const { text } = await modelView(toolsFor(emulator.keys.otherUser).updateCollection, {
      ...noChange,
      collection_id: 'col_summer',
      name: 'Mine now',
    });
    expect(text).toBe(
      'Not found: Collection not found. Check the ids you gave; use ids from earlier tool results only.',
    );
  });

  it('refuses an update that changes nothing, before sending', async () => {
    const { text } = await modelView(toolsFor(emulator.keys.valid).updateCollection, {
      ...noChange,
      collection_id: 'col_summer',
    });
    expect(text).toMatch(/^Invalid arguments: .*give at least one change: name, description/);
  });
});

describe('the API key', () => {
  it('never appears in anything the model was shown', () => {
    expect(modelTexts.length).toBeGreaterThan(10);
    for (const key of Object.values(emulator.keys)) {
      for (const text of modelTexts) expect(text).not.toContain(key);
    }
  });
});
