import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnyCatalogTool, createCatalogToolList } from '../src/tools/index.js';
import { TEST_KEY } from './support/fixtures.js';
import {
  type ReceivedRequest,
  sendJson,
  startTestServer,
  type TestServer,
} from './support/test-server.js';

// A service that applies every PATCH, then fails with a 500 while `fail` holds: the outcome is unknown.
let fail = true;
const patches: string[] = [];
let service: TestServer;

function answer(request: ReceivedRequest, response: ServerResponse) {
  patches.push(request.url);
  if (fail) return sendJson(response, 500, { detail: 'Internal error' });
  return sendJson(response, 200, { collection_id: 'c', name: 'n', clauses: [] });
}

beforeAll(async () => {
  service = await startTestServer(answer);
});
afterAll(() => service.close());

const ids = (product_ids: string[], brand_ids: string[] = []) => ({
  brand_ids,
  website_ids: [],
  category_ids: [],
  product_ids,
});

async function modelText(tool: AnyCatalogTool, input: unknown): Promise<string> {
  try {
    return tool.toModelOutput((await tool.execute(input as never)) as never);
  } catch (error) {
    return tool.errorToModelOutput(error) ?? `rethrown: ${String(error)}`;
  }
}

const shapes: [string, object, object[]][] = [
  [
    'two ids repeated as two one-id clauses',
    { add_clauses: [ids(['A', 'B'])] },
    [{ add_clauses: [ids(['A']), ids(['B'])] }],
  ],
  [
    'rename plus add repeated as the add alone',
    { name: 'x', add_clauses: [ids([], ['b'])] },
    [{ add_clauses: [ids([], ['b'])] }],
  ],
  [
    'add of A and B repeated as two calls',
    { add_clauses: [ids(['A', 'B'])] },
    [{ add_clauses: [ids(['A'])] }, { add_clauses: [ids(['B'])] }],
  ],
];

describe('update_collection after an unknown outcome: reshaped repeats are never sent', () => {
  it.each(shapes)('%s', async (_name, first, repeats) => {
    const [update] = createCatalogToolList({
      clientOptions: { apiKey: TEST_KEY, baseUrl: service.origin, timeoutMs: 1_500 },
      include: ['update_collection'],
    }) as AnyCatalogTool[];
    if (update === undefined) throw new Error('no tool');
    fail = true;
    const collection_id = `col_${patches.length}`;
    expect(await modelText(update, { collection_id, ...first })).toContain('outcome is unknown');
    const sent = patches.length;
    fail = false;
    for (const repeat of repeats) {
      expect(await modelText(update, { collection_id, ...repeat })).toMatch(/unknown/);
    }
    expect(patches.length).toBe(sent);
    // A safe change still goes through.
    expect(await modelText(update, { collection_id, name: 'renamed' })).toContain(
      'Updated collection',
    );
  });
});
