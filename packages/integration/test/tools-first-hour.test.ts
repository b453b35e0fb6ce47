import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCatalogTools } from '@catalogkit/ai-sdk';
import {
  type AnyCatalogTool,
  createCatalogToolList,
  type SearchWebsitesOutput,
  type UpdateCollectionOutput,
} from '@catalogkit/core';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod/v4';

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, mcpResponse: 'json' });
});
afterAll(async () => {
  await emulator?.close();
});
beforeEach(() => {
  for (const name of ['CATALOG_API_KEY', 'CATALOG_BASE_URL', 'CATALOG_MCP_URL']) {
    vi.stubEnv(name, '');
  }
});
afterEach(() => {
  vi.unstubAllEnvs();
});

function tools() {
  const list = createCatalogToolList({
    clientOptions: {
      baseUrl: emulator.baseUrl,
      mcpUrl: emulator.mcpUrl,
      apiKey: emulator.keys.valid,
      maxRetries: 0,
    },
  });
  const byName = (name: string) =>
    list.find((tool) => tool.originalName === name) as AnyCatalogTool;
  return {
    searchCatalog: byName('search_catalog'),
    searchWebsites: byName('search_websites'),
    updateCollection: byName('update_collection'),
  };
}

const noChange = { name: null, description: null, replace_clauses: null, remove_clause_ids: null };

describe('search_websites: the category example the model reads', () => {
  it('is a category id the service accepts (and the old "shoes" is not)', async () => {
    const { searchWebsites } = tools();
    const schema: unknown = z.toJSONSchema(searchWebsites.inputSchema);
    const { description } = (schema as { properties: { category_ids: { description: string } } })
      .properties.category_ids;
    const example = /e\.g\. \["([^"]+)"\]/.exec(description)?.[1];
    expect(example).toMatch(/^[a-z]+(-[a-z]+)*$/);
    const input = { query: 'running', limit: null, country: null, category_ids: [example] };
    const output = (await searchWebsites.execute(input as never)) as SearchWebsitesOutput;
    expect(output.request.category_ids).toEqual([example]);
    expect(output.response.websites.length).toBeGreaterThan(0);
    await expect(
      searchWebsites.execute({ ...input, category_ids: ['shoes'] } as never),
    ).rejects.toMatchObject({ status: 422 });
  });
});

/**
 * A loopback proxy in front of the emulator that holds back the answer to a request whose
 * body contains `slow` (the service has applied it; only its answer is late).
 */
async function slowAnswerProxy(slow: string): Promise<{ baseUrl: string; close(): void }> {
  const upstream = new URL(emulator.baseUrl);
  const proxy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(
          (entry): entry is [string, string] => typeof entry[1] === 'string',
        ),
      );
      const answer = await fetch(`${upstream.origin}${req.url}`, {
        method: req.method ?? 'GET',
        headers,
        ...(req.method === 'GET' ? {} : { body }),
      });
      const text = await answer.text();
      if (body.toString().includes(slow)) await new Promise((done) => setTimeout(done, 600));
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(text);
    });
  });
  await new Promise<void>((listening) => proxy.listen(0, '127.0.0.1', listening));
  const { port } = proxy.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}${upstream.pathname}`, close: () => proxy.close() };
}

describe('update_collection: never drops an add the collection no longer selects', () => {
  const addProduct = (id: string) => ({
    ...noChange,
    collection_id: 'col_summer',
    add_clauses: [{ brand_ids: [], website_ids: [], category_ids: [], product_ids: [id] }],
  });
  const remove = (clauseId: string) => ({
    ...noChange,
    collection_id: 'col_summer',
    remove_clause_ids: [clauseId],
  });
  const selects = (id: string) =>
    emulator.state.collections
      .get('col_summer')
      ?.clauses.some((clause) => clause.product_ids.includes(id)) ?? false;

  async function toolsBehind(slow: string) {
    const proxy = await slowAnswerProxy(slow);
    const list = createCatalogToolList({
      include: ['update_collection'],
      clientOptions: { baseUrl: proxy.baseUrl, apiKey: emulator.keys.valid, maxRetries: 0 },
    });
    return { update: list[0] as AnyCatalogTool, close: proxy.close };
  }

  async function addAndFindClause(update: AnyCatalogTool, productId: string): Promise<string> {
    const added = (await update.execute(addProduct(productId) as never)) as UpdateCollectionOutput;
    const clause = added.response.clauses?.find((c) => c.product_ids.includes(productId));
    expect(clause).toBeDefined();
    return clause?.clause_id ?? '';
  }

  it('keeps the newest state when answers arrive out of order (F2 reorder)', async () => {
    const { update, close } = await toolsBehind('Slow rename');
    try {
      const clauseId = await addAndFindClause(update, 'prod_rt_reorder');
      const renamed = update.execute({
        ...noChange,
        collection_id: 'col_summer',
        name: 'Slow rename',
      } as never);
      await new Promise((done) => setTimeout(done, 150));
      await update.execute(remove(clauseId) as never);
      await renamed; // its older answer arrives last
      expect(selects('prod_rt_reorder')).toBe(false);
      const again = (await update.execute(
        addProduct('prod_rt_reorder') as never,
      )) as UpdateCollectionOutput;
      expect(again.request.update.add_clauses).toHaveLength(1);
      expect(selects('prod_rt_reorder')).toBe(true);
    } finally {
      close();
    }
  });

  it('does not judge an add by the state while a removal is unanswered (F2 in flight)', async () => {
    const { update, close } = await toolsBehind('remove_clause_ids');
    try {
      const clauseId = await addAndFindClause(update, 'prod_rt_inflight');
      const removing = update.execute(remove(clauseId) as never);
      await new Promise((done) => setTimeout(done, 150));
      expect(selects('prod_rt_inflight')).toBe(false);
      const again = (await update.execute(
        addProduct('prod_rt_inflight') as never,
      )) as UpdateCollectionOutput;
      await removing;
      expect(again.request.update.add_clauses).toHaveLength(1);
      expect(selects('prod_rt_inflight')).toBe(true);
    } finally {
      close();
    }
  });
});

describe('configuration checked at the first call, through an adapter', () => {
  it('@catalogkit/ai-sdk createCatalogTools needs no settings to be made (a build has none)', () => {
    // The first call's ConfigurationError naming what is missing: packages/core/test/tools-first-hour.test.ts.
    expect(() => createCatalogTools()).not.toThrow();
    const onlySearch = createCatalogTools({
      clientOptions: { mcpUrl: emulator.mcpUrl },
      include: ['search_catalog'],
    });
    expect(Object.keys(onlySearch)).toEqual(['search_catalog']);
  });
});
