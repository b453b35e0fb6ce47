import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../src/errors/index.js';
import { MemoryCatalogStore } from '../src/store/memory-store.js';
import { type AnyCatalogTool, createCatalogToolList } from '../src/tools/index.js';
import { TEST_KEY } from './support/fixtures.js';
import { sendJson, startTestServer, type TestServer } from './support/test-server.js';

/*
 * Red team 4e F1. Wave 4e took the tools' `store` option away: the guard now uses the
 * client's store. Code written for 4d (JavaScript, or options built in a variable, where
 * TypeScript's excess-property check does not run) still passes `{ clientOptions, store }`:
 * the store was silently ignored, each tool set's client got a private memory store, and a
 * change of unknown outcome was applied again by the next instance (demo before the fix:
 * 2 PATCHes applied, the shared store never written). The retired option must be refused.
 */

let service: TestServer;
let applied = 0;

beforeAll(async () => {
  // Applies every PATCH; drops the first one's connection before answering (outcome unknown).
  service = await startTestServer((request, response) => {
    if (request.method !== 'PATCH') return sendJson(response, 404, {});
    applied += 1;
    if (applied === 1) return void response.socket?.destroy();
    sendJson(response, 200, { collection_id: 'c1', name: 'c1', clauses: [] });
  });
});
afterAll(() => service.close());
beforeEach(() => {
  applied = 0;
});

const add = {
  collection_id: 'c1',
  name: null,
  description: null,
  replace_clauses: null,
  remove_clause_ids: null,
  add_clauses: [{ brand_ids: [], website_ids: [], category_ids: [], product_ids: ['p1'] }],
};

/** One instance's tool, made with 4d's options: the store beside clientOptions. */
function toolWithRetiredStore(store: MemoryCatalogStore): AnyCatalogTool {
  // Built in a variable: TypeScript accepts the extra `store`, as it did any 4d code's.
  const options = {
    clientOptions: { apiKey: TEST_KEY, baseUrl: service.origin, timeoutMs: 2_000, maxRetries: 0 },
    include: ['update_collection' as const],
    store,
  };
  const [tool] = createCatalogToolList(options) as AnyCatalogTool[];
  if (tool === undefined) throw new Error('no update_collection tool');
  return tool;
}

describe('red team 4e: the retired tools `store` option', () => {
  it('is refused when the tools are made, naming where the store goes; nothing is sent', async () => {
    const shared = new MemoryCatalogStore();
    const sent: unknown[] = [];
    for (let instance = 0; instance < 2; instance++) {
      try {
        sent.push(await toolWithRetiredStore(shared).execute(add as never));
      } catch (error) {
        sent.push(error);
      }
    }
    expect(applied).toBe(0);
    for (const outcome of sent) {
      expect(outcome).toBeInstanceOf(ConfigurationError);
      expect((outcome as Error).message).toMatch(/store.*clientOptions/);
    }
  });
});
