import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHttpTokenMinter } from '../src/conversations/index.js';
import { type CallScope, DEFAULT_BODY_LIMITS } from '../src/http/call-scope.js';
import { send } from '../src/http/transport.js';
import { CatalogClient, ProtocolError } from '../src/index.js';
import { type AnyCatalogTool, createCatalogToolList } from '../src/tools/index.js';
import { TEST_KEY } from './support/fixtures.js';
import {
  type ReceivedRequest,
  sendJson,
  startTestServer,
  type TestServer,
} from './support/test-server.js';

/*
 * Red-team findings on collection updates (issue 23, second round): a change answered by a
 * redirect is not sent again; equivalent updates are one update to the memory; the memory
 * ages on the monotonic clock and keeps its outcome-unknown guards under a flood.
 */

let applied = 0;
let redirectStatus = 307;
let service: TestServer;

/** Applies every change, then answers with a same-origin redirect (to `/done` once there). */
function handle(request: ReceivedRequest, response: import('node:http').ServerResponse) {
  if (request.method !== 'GET' && request.body !== '') applied += 1;
  if (request.url.endsWith('/done')) {
    return sendJson(response, 200, { collection_id: 'col_1', conversation_id: 'conv_1' });
  }
  response.writeHead(redirectStatus, { location: `${request.url}/done` });
  response.end();
}

beforeAll(async () => {
  service = await startTestServer(handle);
});
afterAll(() => service.close());
beforeEach(() => {
  applied = 0;
  service.requests.length = 0;
});

function client(): CatalogClient {
  return new CatalogClient({ apiKey: TEST_KEY, baseUrl: service.origin, maxRetries: 2 });
}

function updateTool(): AnyCatalogTool {
  const [tool] = createCatalogToolList({
    clientOptions: { apiKey: TEST_KEY, baseUrl: service.origin, maxRetries: 2 },
    include: ['update_collection'],
  });
  if (tool === undefined) throw new Error('no update_collection tool');
  return tool;
}

async function modelText(tool: AnyCatalogTool, input: unknown): Promise<string> {
  try {
    return JSON.stringify(tool.toModelOutput((await tool.execute(input as never)) as never));
  } catch (error) {
    return JSON.stringify(tool.errorToModelOutput(error) ?? String(error));
  }
}

describe('a change answered by a redirect is not sent again', () => {
  for (const status of [301, 302, 303, 307, 308]) {
    it(`collections.update answered ${status}: one PATCH, outcome unknown`, async () => {
      redirectStatus = status;
      const error = await client()
        .collections.update('col_1', { name: 'n' })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).outcomeUnknown).toBe(true);
      expect(service.requests.map((request) => request.url)).toEqual(['/v1/collections/col_1']);
      expect(applied).toBe(1);
    });
  }

  it('update_collection adding twice after a 307: applied once, never reported as updated', async () => {
    redirectStatus = 307;
    const tool = updateTool();
    const add = {
      collection_id: 'col_1',
      add_clauses: [{ brand_ids: [], website_ids: [], category_ids: [], product_ids: ['p1'] }],
    };
    const first = await modelText(tool, add);
    const second = await modelText(tool, add);
    expect(applied).toBe(1);
    expect(first).not.toMatch(/Updated collection/);
    expect(second).not.toMatch(/Updated collection/);
  });

  it('conversations.create and a token mint answered 308: one POST each, outcome unknown', async () => {
    redirectStatus = 308;
    const created = await client()
      .conversations.create()
      .catch((caught: unknown) => caught);
    expect((created as ProtocolError).outcomeUnknown).toBe(true);
    const mint = createHttpTokenMinter({ client: client(), conversationId: 'conv_1' });
    const minted = await mint({ signal: new AbortController().signal }).catch(
      (caught: unknown) => caught,
    );
    expect((minted as ProtocolError).outcomeUnknown).toBe(true);
    expect(applied).toBe(2);
    expect(service.requests).toHaveLength(2);
  });

  it('a read is still redirected (same origin)', async () => {
    redirectStatus = 307;
    const answer = await client().request({
      operation: 'collections.get',
      method: 'GET',
      path: '/v1/collections/col_1',
      retry: 'idempotent',
    });
    expect(answer.data).toMatchObject({ collection_id: 'col_1' });
    expect(service.requests.map((request) => request.url)).toEqual([
      '/v1/collections/col_1',
      '/v1/collections/col_1/done',
    ]);
  });
});

describe('a later hop never clears "may have arrived"', () => {
  let closing: Server;
  let origin: string;
  beforeAll(async () => {
    // Answers one redirect, then stops listening: the next hop's connection is refused.
    closing = createServer((_request, response) => {
      response.writeHead(307, { location: '/next', connection: 'close' });
      response.end();
      closing.close();
    });
    await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(closing.address() as AddressInfo).port}`;
  });

  it('a redirect followed by ECONNREFUSED leaves mayHaveArrived true', async () => {
    const scope: CallScope = {
      operation: 'test.redirect',
      signal: new AbortController().signal,
      limits: DEFAULT_BODY_LIMITS,
      mutates: false,
      failure: undefined,
      mayHaveArrived: false,
      credential: undefined,
      bearer: undefined,
      observer: undefined,
      remainingMs: () => 5_000,
      until: (promise) => promise,
      onStop: () => {},
    };
    const request = { method: 'POST' as const, url: `${origin}/first`, headers: {}, body: '{}' };
    const error = await send(fetch, request, scope, (value) => value).catch(
      (caught: unknown) => caught,
    );
    expect(String(error)).toMatch(/ECONNREFUSED/);
    expect(scope.mayHaveArrived).toBe(true);
  });
});
