import { CatalogClient, type CatalogQuery } from '@catalogkit/core';
import type { RunningEmulator } from '@catalogkit/emulator';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { buyLinksOf } from './raw-catalog-search.js';

/** Which way of calling `search_catalog` a contender is. */
export type ContenderId = 'a' | 'b' | 'c';

/** One way of calling `search_catalog`; `search()` gives the buy links of the answer. */
export interface Contender {
  id: ContenderId;
  label: string;
  /** HTTP requests this contender's fetch has sent so far (every method, GET included). */
  readonly requestsSent: number;
  search(): Promise<string[]>;
  close(): Promise<void>;
}

/** The query every contender sends, as `arguments.catalog`. */
export const BENCH_QUERY: CatalogQuery = {
  query: 'trail running shoes',
  pagination: { limit: 10 },
};

const CLIENT_INFO = { name: 'catalogkit-bench', version: '0.0.0' };

/**
 * The SDK Client builds an Ajv instance per Client by default; sharing one across the
 * per-call clients of (b) keeps its measured cost to the protocol's round trips (and in
 * the SDK's favour).
 */
const sharedValidator = new AjvJsonSchemaValidator();

/** A real fetch that counts the requests it sends, so each contender's total is its own. */
class CountingFetch {
  sent = 0;
  readonly fetch: typeof fetch = (input, init) => {
    this.sent += 1;
    return fetch(input, init);
  };
}

function sdkTransport(emulator: RunningEmulator, counter: CountingFetch) {
  return new StreamableHTTPClientTransport(new URL(`${emulator.mcpUrl}/mcp`), {
    fetch: counter.fetch,
    requestInit: { headers: { 'x-api-key': emulator.keys.valid } },
  });
}

async function sdkSearch(client: Client): Promise<string[]> {
  const result = await client.callTool({
    name: 'search_catalog',
    arguments: { meta: null, catalog: BENCH_QUERY },
  });
  if (result.isError) throw new Error('search_catalog answered isError');
  return buyLinksOf(result.structuredContent);
}

async function connectedSdkClient(emulator: RunningEmulator, counter: CountingFetch) {
  const client = new Client(CLIENT_INFO, { jsonSchemaValidator: sharedValidator });
  await client.connect(sdkTransport(emulator, counter));
  return client;
}

/** (a) `CatalogClient.catalog.search`, one client reused: its normal use. */
function catalogClientContender(emulator: RunningEmulator): Contender {
  const counter = new CountingFetch();
  const client = new CatalogClient({
    apiKey: emulator.keys.valid,
    mcpUrl: emulator.mcpUrl,
    fetch: counter.fetch,
  });
  return {
    id: 'a',
    label: 'CatalogClient.catalog.search (one client reused)',
    get requestsSent() {
      return counter.sent;
    },
    search: async () => buyLinksOf((await client.catalog.search(BENCH_QUERY)).result),
    close: async () => {},
  };
}

/** (b) MCP SDK Client, a new connection per call: what a stateless serverless handler does. */
function sdkPerCallContender(emulator: RunningEmulator): Contender {
  const counter = new CountingFetch();
  return {
    id: 'b',
    label: 'MCP SDK Client, new connection per call',
    get requestsSent() {
      return counter.sent;
    },
    search: async () => {
      const client = await connectedSdkClient(emulator, counter);
      try {
        return await sdkSearch(client);
      } finally {
        await client.close();
      }
    },
    close: async () => {},
  };
}

/** (c) MCP SDK Client connected once and reused for every call: its best case. */
async function sdkReusedContender(emulator: RunningEmulator): Promise<Contender> {
  const counter = new CountingFetch();
  const client = await connectedSdkClient(emulator, counter);
  return {
    id: 'c',
    label: 'MCP SDK Client, connected once and reused',
    get requestsSent() {
      return counter.sent;
    },
    search: () => sdkSearch(client),
    close: () => client.close(),
  };
}

/** The three contenders against one emulator, in the order (a), (b), (c). */
export async function createContenders(emulator: RunningEmulator): Promise<Contender[]> {
  return [
    catalogClientContender(emulator),
    sdkPerCallContender(emulator),
    await sdkReusedContender(emulator),
  ];
}
