import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCatalogTools as createAiSdkTools } from '@catalogkit/ai-sdk';
import { type AnyCatalogTool, CatalogClient, createCatalogToolList } from '@catalogkit/core';
import { createCatalogTools as createLangChainTools } from '@catalogkit/langchain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScriptedModel, type ScriptedCall } from './scripted-model.js';

// A service that echoes the key it receives, in every case and in odd places: product
// titles, retailer names, a collection's name, a 404 detail, a 422 message, a JSON-RPC
// error message and a JSON-RPC id. The tools are built from a client that carries its own
// key, with no CATALOG_API_KEY in the environment.
const KEY = 'ck_live_Echo7f3a9c2e4b6d8f0a';

function keyOf(request: IncomingMessage): string {
  const header = request.headers['x-api-key'] ?? request.headers.authorization ?? '';
  return String(header).replace(/^Bearer /, '');
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json', 'x-ucp-auth-tier': 'token' });
  response.end(JSON.stringify(body));
}

function product(key: string) {
  return {
    id: 'prod_1',
    title: `Shoe for ${key}`,
    variants: [
      { id: 'var_1', url: `https://shop.test/buy/1?ref=${key.toLowerCase()}`, title: key },
    ],
  };
}

function answerMcp(body: string, key: string, response: ServerResponse) {
  const rpc = JSON.parse(body) as {
    id: unknown;
    params?: { arguments?: { catalog?: { query?: string } } };
  };
  const query = rpc.params?.arguments?.catalog?.query;
  if (query === 'rpc error') {
    return send(response, 200, {
      jsonrpc: '2.0',
      id: rpc.id,
      error: { code: -32602, message: `Unknown key ${key.toUpperCase()}` },
    });
  }
  // The id must match the request's: an echoed key there is a broken answer.
  const id = query === 'odd id' ? key : rpc.id;
  send(response, 200, {
    jsonrpc: '2.0',
    id,
    result: { content: [], structuredContent: { products: [product(key)] } },
  });
}

function answerRest(request: IncomingMessage, key: string, response: ServerResponse) {
  const url = request.url ?? '';
  if (url.startsWith('/v1/websites/search') && url.includes('query=bad')) {
    return send(response, 422, {
      detail: [
        { loc: ['query', 'query'], msg: `not for ${key.toLowerCase()}`, type: 'value_error' },
      ],
    });
  }
  if (url.startsWith('/v1/websites/search')) {
    return send(response, 200, {
      websites: [{ id: 'web_1', url: 'https://shop.test', name: `Shop of ${key.toLowerCase()}` }],
    });
  }
  if (url === '/v1/collections/col_missing') {
    return send(response, 404, { detail: `No collection col_missing for ${key}` });
  }
  send(response, 200, {
    collection_id: 'col_echo',
    name: key.toUpperCase(),
    description: `Owned by ${key}`,
    clauses: [],
  });
}

let server: Server;
let origin = '';
let savedEnvKey: string | undefined;

beforeAll(async () => {
  savedEnvKey = process.env.CATALOG_API_KEY;
  delete process.env.CATALOG_API_KEY;
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const key = keyOf(request);
      if (request.url === '/mcp') answerMcp(Buffer.concat(chunks).toString(), key, response);
      else answerRest(request, key, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  if (savedEnvKey !== undefined) process.env.CATALOG_API_KEY = savedEnvKey;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const client = () =>
  new CatalogClient({ apiKey: KEY, baseUrl: origin, mcpUrl: origin, maxRetries: 0 });

/** The calls a model makes: three that succeed, four that fail, each echoing the key. */
const CALLS: ScriptedCall[] = [
  { toolName: 'search_catalog', input: { query: 'shoes' } },
  { toolName: 'search_websites', input: { query: 'shop' } },
  { toolName: 'update_collection', input: { collection_id: 'col_echo', name: 'Summer' } },
  { toolName: 'update_collection', input: { collection_id: 'col_missing', name: 'Summer' } },
  { toolName: 'search_websites', input: { query: 'bad' } },
  { toolName: 'search_catalog', input: { query: 'rpc error' } },
  { toolName: 'search_catalog', input: { query: 'odd id' } },
];

/** The key in any letter case. */
const ANY_CASE_KEY = new RegExp(KEY, 'i');

function expectClean(texts: string[]): void {
  expect(texts).toHaveLength(CALLS.length);
  for (const text of texts) {
    expect(text).not.toMatch(ANY_CASE_KEY);
    expect(text.length).toBeGreaterThan(20);
  }
  // The echoes were there to remove: the redaction marks them.
  expect(texts.filter((text) => text.includes('[redacted]')).length).toBeGreaterThanOrEqual(5);
}

describe('no key in what the model reads, with tools built from a client carrying its own key', () => {
  it('through core', async () => {
    const tools = createCatalogToolList({ client: client() });
    const texts: string[] = [];
    for (const call of CALLS) {
      const tool = tools.find((candidate) => candidate.name === call.toolName) as AnyCatalogTool;
      try {
        texts.push(tool.toModelOutput((await tool.execute(call.input as never)) as never));
      } catch (error) {
        texts.push(tool.errorToModelOutput(error) ?? `unhandled ${String(error)}`);
      }
    }
    expectClean(texts);
  });

  it('through the AI SDK (generateText)', async () => {
    const tools = createAiSdkTools({ client: client(), needsApproval: false });
    const { prompts } = await runScriptedModel({
      tools,
      prompt: 'echo',
      next: (_seen, step) => (step === 0 ? CALLS : []),
    });
    const outputs = prompts.at(-1) ?? [];
    const texts = outputs
      .filter((message) => message.role === 'tool')
      .flatMap((message) => message.content as Array<{ output: { value: unknown } }>)
      .map((part) => String(part.output.value));
    expectClean(texts);
    // Nothing else in the prompt carries it either.
    expect(JSON.stringify(prompts)).not.toMatch(ANY_CASE_KEY);
  });

  it('through LangChain (tool.invoke with a tool call)', async () => {
    const tools = createLangChainTools({ client: client() });
    const texts: string[] = [];
    for (const [index, call] of CALLS.entries()) {
      const tool = tools.find((candidate) => candidate.name === call.toolName);
      const message = await tool?.invoke({
        type: 'tool_call',
        id: `call_${index}`,
        name: call.toolName,
        args: call.input as Record<string, unknown>,
      });
      texts.push(
        typeof message?.content === 'string' ? message.content : JSON.stringify(message?.content),
      );
    }
    expectClean(texts);
  });
});
