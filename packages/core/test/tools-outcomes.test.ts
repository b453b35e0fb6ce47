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

// A collection service that applies every PATCH it reads, then answers as `mode` says:
// the way an update can fail after the change was made.
type Mode =
  | 'ok'
  | '500'
  | 'drop'
  | 'hang'
  | 'truncate'
  | '404'
  | 'unreadable'
  | 'empty'
  | 'html'
  | 'not-json';
let mode: Mode = 'ok';
let applied = 0;
let service: TestServer;

function collection() {
  return { collection_id: 'col_1', name: 'Summer', clauses: [] };
}

function answer(request: ReceivedRequest, response: ServerResponse) {
  if (request.url.startsWith('/v1/websites')) return sendJson(response, 500, { detail: 'down' });
  if (mode === '404') return sendJson(response, 404, { detail: 'Collection not found' });
  applied += 1;
  if (mode === 'ok') return sendJson(response, 200, collection());
  if (mode === '500') return sendJson(response, 500, { detail: 'Internal error' });
  if (mode === 'drop') {
    response.socket?.destroy();
    return;
  }
  if (mode === 'truncate') {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' });
    response.write('{"collection_id":"col_1","na');
    setTimeout(() => response.socket?.destroy(), 20);
  }
  // A 2xx the client cannot read: the change was applied all the same.
  if (mode === 'unreadable') return sendJson(response, 200, { ok: true });
  if (mode === 'empty') return response.writeHead(200).end();
  if (mode === 'html') {
    return response.writeHead(200, { 'content-type': 'text/html' }).end('<p>Saved</p>');
  }
  if (mode === 'not-json') {
    return response.writeHead(200, { 'content-type': 'application/json' }).end('{"collection_');
  }
  // 'hang': never answers; the client's timeout ends the call.
}

beforeAll(async () => {
  service = await startTestServer(answer);
});
afterAll(() => service.close());

function tools(): { update: AnyCatalogTool; websites: AnyCatalogTool } {
  const list = createCatalogToolList({
    clientOptions: { apiKey: TEST_KEY, baseUrl: service.origin, timeoutMs: 1_500 },
    include: ['update_collection', 'search_websites'],
  });
  return { update: list[1] as AnyCatalogTool, websites: list[0] as AnyCatalogTool };
}

const rename = (name: string) => ({ collection_id: 'col_1', name });
/** An add of one product: what must never be sent twice while its outcome is unknown. */
const add = (product: string) => ({
  collection_id: 'col_1',
  add_clauses: [{ brand_ids: [], website_ids: [], category_ids: [], product_ids: [product] }],
});

/** What the model reads of one call. */
async function modelText(tool: AnyCatalogTool, input: unknown): Promise<string> {
  try {
    return tool.toModelOutput((await tool.execute(input as never)) as never);
  } catch (error) {
    return tool.errorToModelOutput(error) ?? `rethrown: ${String(error)}`;
  }
}

describe('update_collection when the change may have been applied', () => {
  it.each(['500', 'drop', 'hang', 'truncate', 'unreadable', 'empty', 'html', 'not-json'] as const)(
    'after %s: the model reads that the outcome is unknown, and a repeat is not sent',
    async (fault) => {
      const { update } = tools();
      mode = fault;
      const before = applied;
      const first = await modelText(update, add(`p_${fault}`));
      expect(first).toContain('outcome is unknown');
      expect(first).toContain('Do not call this tool again with the same change');
      expect(first).toContain('Tell the user');
      expect(first).not.toMatch(/try (once )?(more|again)/i);
      expect(applied).toBe(before + 1);

      // The model repeats it anyway: nothing is sent, and it is told why.
      mode = 'ok';
      const requests = service.requests.length;
      const repeat = await modelText(update, add(`p_${fault}`));
      expect(repeat).toContain(
        'Not sent: an earlier change to collection col_1, adding or replacing clauses with products p_',
      );
      expect(service.requests.length).toBe(requests);

      // A change safe to repeat is sent as usual.
      expect(await modelText(update, rename('Other'))).toContain('Updated collection');
      expect(applied).toBe(before + 2);
    },
  );

  it('identical adds made at once send one request; the other is refused, not sent', async () => {
    const { update } = tools();
    mode = 'ok';
    const before = applied;
    const [a, b] = await Promise.all([
      modelText(update, add('p_twice_at_once')),
      modelText(update, add('p_twice_at_once')),
    ]);
    expect(applied).toBe(before + 1);
    expect([a, b].filter((text) => text.startsWith('Not sent: an earlier change'))).toHaveLength(1);
  });

  it('a rename that succeeded may be repeated: it is safe to send again', async () => {
    const { update } = tools();
    mode = 'ok';
    const before = applied;
    expect(await modelText(update, rename('Once'))).toMatch(/^Updated collection/);
    expect(await modelText(update, rename('Once'))).toMatch(/^Updated collection/);
    expect(applied).toBe(before + 2);
  });

  it('a refusal (404) is not remembered: the model may fix it and try again', async () => {
    const { update } = tools();
    mode = '404';
    const requests = service.requests.length;
    expect(await modelText(update, rename('Missing'))).toContain('Not found');
    expect(await modelText(update, rename('Missing'))).toContain('Not found');
    expect(service.requests.length).toBe(requests + 2);
  });

  it('searches, which change nothing, may still be tried once more', async () => {
    const { websites } = tools();
    expect(await modelText(websites, { query: 'nike' })).toContain('You may try once more later');
  });
});
