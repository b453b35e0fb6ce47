import { CatalogClient, type CatalogClientOptions } from '@catalogkit/core';
import { catalogTelemetry } from '@catalogkit/otel';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { globalConfig } from 'zod/v4/core';
import { buyLinksOf } from '../raw-catalog-search.js';

/** Which way of calling a contender is. */
export type ContenderId =
  | 'raw'
  | 'raw-timeout'
  | 'client'
  | 'client-otel-idle'
  | 'client-otel'
  | 'client-zod'
  | 'sdk'
  | 'phases';

/** One way of making the call of a scenario; `call()` gives what the answer's links are. */
export interface Contender {
  id: ContenderId;
  label: string;
  call(): Promise<string[]>;
  close(): Promise<void>;
}

/** One measured call shape against the canned server. */
export interface Scenario {
  name: string;
  contenders: Contender[];
}

const KEY = 'ck_bench_7d1e0f9a8c4e21b3';
// A limit as large as the largest canned answer: the client keeps at most the limit asked for.
const QUERY = { query: 'shoes', pagination: { limit: 100 } };
const RPC_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'x-api-key': KEY,
};

function toolsCall(id: number): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'search_catalog', arguments: { meta: null, catalog: QUERY } },
  });
}

/** The JSON-RPC message of an SSE answer: the first `data:` line, parsed. */
function firstSseData(text: string): unknown {
  const start = text.indexOf('data: ') + 'data: '.length;
  const end = text.indexOf('\n', start);
  return JSON.parse(text.slice(start, end === -1 ? undefined : end));
}

/**
 * Runs `call` with a timeout signal, as any production call needs (a server that never
 * answers must not hold the caller): an AbortController and a timer per call.
 */
export async function withTimeoutSignal<T>(call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 30_000);
  try {
    return await call(controller.signal);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Raw fetch + JSON.parse: the floor any client is measured against; with `timeout`, the
 * same plus a timeout signal, the floor of any client that can be stopped.
 */
function rawCatalog(mcpUrl: string, sse: boolean, timeout = false): Contender {
  let id = 0;
  const post = (signal?: AbortSignal) =>
    fetch(`${mcpUrl}/mcp`, { method: 'POST', headers: RPC_HEADERS, body: toolsCall(++id), signal });
  return {
    id: timeout ? 'raw-timeout' : 'raw',
    label: timeout ? 'fetch + JSON.parse, with a timeout signal' : 'fetch + JSON.parse',
    call: async () => {
      const response = await (timeout ? withTimeoutSignal(post) : post());
      const text = await response.text();
      const message = (sse ? firstSseData(text) : JSON.parse(text)) as {
        result: { structuredContent: unknown };
      };
      return buyLinksOf(message.result.structuredContent);
    },
    close: async () => {},
  };
}

/**
 * The client's instrumentation in the two states that matter (issue 38): `@catalogkit/otel`
 * with no provider registered (the global one is a no-op in this process), and with the
 * SDK's in-memory span exporter behind a simple processor (every span exported at its end;
 * emptied after each call so memory stays flat).
 */
const exporter = new InMemorySpanExporter();
const recording = catalogTelemetry({
  tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
});
const idle = catalogTelemetry();
export const OTEL_VARIANTS = [
  {
    id: 'client-otel-idle',
    label: ', @catalogkit/otel, no provider',
    options: { instrumentation: idle.instrumentation },
  },
  {
    id: 'client-otel',
    label: ', @catalogkit/otel, in-memory exporter',
    options: { instrumentation: recording.instrumentation },
  },
] as const satisfies readonly { id: ContenderId; label: string; options: CatalogClientOptions }[];

function clientCatalog(mcpUrl: string, variant?: (typeof OTEL_VARIANTS)[number]): Contender {
  const client = new CatalogClient({ apiKey: KEY, mcpUrl, ...variant?.options });
  return {
    id: variant?.id ?? 'client',
    label: `CatalogClient.catalog.search${variant?.label ?? ''}`,
    call: async () => {
      const links = buyLinksOf((await client.catalog.search(QUERY)).result);
      if (variant?.id === 'client-otel') exporter.reset();
      return links;
    },
    close: async () => {},
  };
}

/**
 * The client with its answer check switched off, as `z.config({ jitless: true })` does:
 * every answer is parsed by zod 4 (a copy of every object). Set for this contender's calls
 * only (calls run one at a time) and unset after each. zod decides whether it generates
 * its own object parsers when a schema is created, at import, so zod keeps its JIT here:
 * this is plain zod 4 parsing at its fastest.
 */
function clientCatalogZodParsing(mcpUrl: string): Contender {
  const client = new CatalogClient({ apiKey: KEY, mcpUrl });
  return {
    id: 'client-zod',
    label: 'CatalogClient.catalog.search, answers parsed by zod (check off)',
    call: async () => {
      globalConfig.jitless = true;
      try {
        return buyLinksOf((await client.catalog.search(QUERY)).result);
      } finally {
        globalConfig.jitless = false;
      }
    },
    close: async () => {},
  };
}

async function sdkCatalog(mcpUrl: string): Promise<Contender> {
  const client = new Client({ name: 'catalogkit-bench', version: '0.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${mcpUrl}/mcp`), {
      requestInit: { headers: { 'x-api-key': KEY } },
    }),
  );
  return {
    id: 'sdk',
    label: 'MCP SDK Client (connected once)',
    call: async () => {
      const result = await client.callTool({
        name: 'search_catalog',
        arguments: { meta: null, catalog: QUERY },
      });
      return buyLinksOf(result.structuredContent);
    },
    close: () => client.close(),
  };
}

function websiteIds(body: unknown): string[] {
  return ((body as { websites?: { id: string; url: string }[] }).websites ?? []).map(
    (website) => `${website.id} ${website.url}`,
  );
}

/**
 * The measured website search, through `fetchImpl`: raw fetch + JSON.parse (with the
 * signal given, if any), and the client; both give the answer's websites as `id url` lines.
 */
export function websiteCalls(
  origin: string,
  fetchImpl?: typeof fetch,
  options: CatalogClientOptions = {},
) {
  // Without fetchImpl the client keeps its default fetch, as users have it.
  const client = new CatalogClient({ ...options, apiKey: KEY, baseUrl: origin, fetch: fetchImpl });
  const url = `${origin}/v1/websites/search?query=shop&limit=5`;
  return {
    raw: async (signal?: AbortSignal) => {
      const response = await (fetchImpl ?? fetch)(url, {
        headers: { accept: 'application/json', 'x-api-key': KEY },
        signal,
      });
      return websiteIds(JSON.parse(await response.text()));
    },
    client: async () => websiteIds(await client.websites.search({ query: 'shop', limit: 5 })),
  };
}

/** `websites.search`: the client against raw fetch (the MCP SDK has no REST call). */
function websiteScenario(origin: string): Scenario {
  const calls = websiteCalls(origin);
  return {
    name: 'websites.search (JSON, 5 websites)',
    contenders: [
      { id: 'raw', label: 'fetch + JSON.parse', call: () => calls.raw(), close: async () => {} },
      {
        id: 'raw-timeout',
        label: 'fetch + JSON.parse, with a timeout signal',
        call: () => withTimeoutSignal(calls.raw),
        close: async () => {},
      },
      {
        id: 'client',
        label: 'CatalogClient.websites.search',
        call: calls.client,
        close: async () => {},
      },
      ...OTEL_VARIANTS.map((variant) => {
        const traced = websiteCalls(origin, undefined, variant.options);
        return {
          id: variant.id,
          label: `CatalogClient.websites.search${variant.label}`,
          call: async () => {
            const ids = await traced.client();
            if (variant.id === 'client-otel') exporter.reset();
            return ids;
          },
          close: async () => {},
        };
      }),
    ],
  };
}

/** Every scenario against the canned server at `origin`. */
export async function createScenarios(origin: string): Promise<Scenario[]> {
  const scenarios = [websiteScenario(origin)];
  for (const size of ['10', '100']) {
    for (const mode of ['json', 'sse'] as const) {
      const mcpUrl = `${origin}/${mode}/${size}`;
      scenarios.push({
        name: `catalog.search (${mode.toUpperCase()}, ${size} products)`,
        contenders: [
          rawCatalog(mcpUrl, mode === 'sse'),
          rawCatalog(mcpUrl, mode === 'sse', true),
          clientCatalog(mcpUrl),
          ...OTEL_VARIANTS.map((variant) => clientCatalog(mcpUrl, variant)),
          clientCatalogZodParsing(mcpUrl),
          await sdkCatalog(mcpUrl),
        ],
      });
    }
  }
  return scenarios;
}
