import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { CatalogClient } from '@catalogkit/core';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogTools } from '../src/index.js';
import { scriptedToolCalls, v3GenerateResult } from './support/harness.js';

// Issue 33 through an adapter: a misbehaving loopback service echoes the API key in a
// product field and in an error detail, in each in-scope form; a real generateText run
// (ai 7) calls search_catalog. The key is in nothing the model read, nothing the run
// returned (tool outputs included, which reach UI streams), and no log line.

const KEY = `ck_live_${randomBytes(12).toString('hex')}`;
const FORMS: Record<string, string> = {
  raw: KEY,
  upper: KEY.toUpperCase(),
  everyBytePercent: [...Buffer.from(KEY)].map((b) => `%${b.toString(16)}`).join(''),
  jsonUnicode: [...KEY].map((c) => `\\u00${c.charCodeAt(0).toString(16)}`).join(''),
  htmlDecimal: [...KEY].map((c) => `&#${c.charCodeAt(0)};`).join(''),
  base64: Buffer.from(KEY).toString('base64'),
};
let echo = KEY;
let answerWithError = false;

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

const product = () => ({
  id: 'prod_1',
  title: `Trail shoe (debug: ${echo})`,
  [echo]: echo,
  variants: [
    {
      id: 'var_1',
      title: 'EU 42',
      url: 'https://shop.example/p/1',
      price: { amount: 9900, currency: 'EUR' },
    },
  ],
});

let server: Server;
let origin = '';
beforeAll(async () => {
  server = createServer(async (request, response) => {
    const body = await readBody(request);
    response.setHeader('content-type', 'application/json');
    if (answerWithError) {
      response.statusCode = 400;
      return response.end(JSON.stringify({ detail: `bad query; you sent ${echo}` }));
    }
    const id = (JSON.parse(body) as { id?: unknown }).id ?? null;
    const structuredContent = { ucp: { version: '2026-01-01' }, products: [product()] };
    response.end(
      JSON.stringify({ jsonrpc: '2.0', id, result: { content: [], structuredContent } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

async function run(): Promise<string> {
  const logged: string[] = [];
  const log = (...args: unknown[]) => logged.push(inspect(args, { depth: 20 }));
  const client = new CatalogClient({
    apiKey: KEY,
    baseUrl: origin,
    mcpUrl: origin,
    maxRetries: 0,
    logger: { debug: log, info: log, warn: log, error: log },
  });
  const tools = createCatalogTools({ client, include: ['search_catalog'] });
  const steps = [
    () => [
      {
        toolName: 'search_catalog',
        input: { query: 'trail shoe', limit: 1, cursor: null, placements: null },
      },
    ],
  ];
  const model: MockLanguageModelV3 = new MockLanguageModelV3({
    doGenerate: async (options) =>
      v3GenerateResult(scriptedToolCalls(steps, model.doGenerateCalls.length - 1, options)),
  });
  const result = await generateText({ model, tools, prompt: 'shoes', stopWhen: stepCountIs(3) });
  return [
    inspect(
      model.doGenerateCalls.map((call) => call.prompt),
      { depth: 30 },
    ),
    JSON.stringify(model.doGenerateCalls.map((call) => call.prompt)),
    inspect(result.steps, { depth: 30 }),
    JSON.stringify(result.steps),
    ...logged,
  ].join('\n');
}

function leaks(text: string): string[] {
  const haystack = text.toLowerCase();
  return Object.entries(FORMS).flatMap(([name, written]) =>
    haystack.includes(written.toLowerCase()) ||
    haystack.includes(JSON.stringify(written.toLowerCase()).slice(1, -1))
      ? [name]
      : [],
  );
}

describe.each([false, true])('ai 7, generateText, the key echoed (error answer: %s)', (error) => {
  it.each(Object.entries(FORMS))(
    'as %s: not in the model prompt, the steps or logs',
    async (_name, form) => {
      echo = form;
      answerWithError = error;
      const seen = await run();
      expect(seen).toContain('[redacted]');
      expect(leaks(seen)).toEqual([]);
    },
  );
});
