import { inspect } from 'node:util';
import { CatalogClient, type CatalogLogger } from '@catalogkit/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns } from './fuzz-runs.js';
import {
  catalogAnswer,
  type HostileServer,
  rpcIdOf,
  startHostileServer,
} from './hostile-server.js';

const KEY = 'ck_Hostile_3f9A2c7E5b1D4a60';
const TOKEN = 'ctok_Live_9Qz8Yx7Wv6Ut5Sr4';
const RUNS = fuzzRuns(60);

let server: HostileServer;
beforeAll(async () => {
  server = await startHostileServer();
});
afterAll(() => server.close());

/** A string with the letters of `secret` in the cases `mask` picks. */
function caseVariant(secret: string, mask: boolean[]): string {
  return [...secret]
    .map((char, index) => (mask[index % mask.length] ? char.toUpperCase() : char.toLowerCase()))
    .join('');
}

type Echo = (secret: string) => {
  status: number;
  headers: Record<string, string>;
  body: (rpcId: unknown) => string;
};

/** Ways a hostile server echoes a secret back. */
const ECHOES: Record<string, Echo> = {
  detail: (s) => ({
    status: 401,
    headers: {},
    body: () => JSON.stringify({ detail: `bad key ${s}` }),
  }),
  html500: (s) => ({
    status: 502,
    headers: { 'content-type': 'text/html' },
    body: () => `<html><body>upstream saw x-api-key: ${s}</body></html>`,
  }),
  invalidJson: (s) => ({ status: 200, headers: {}, body: () => `{"echo": "${s}", ` }),
  rpcIdIsTheKey: (s) => ({
    status: 200,
    headers: {},
    body: () => JSON.stringify(catalogAnswer(s)),
  }),
  tierHeader: (s) => ({
    status: 200,
    headers: { 'x-ucp-auth-tier': s },
    body: (id) => JSON.stringify(catalogAnswer(id)),
  }),
  challenge: (s) => ({
    status: 402,
    headers: { 'www-authenticate': `Payment id="${s}", realm="r", method="m", intent="charge"` },
    body: () => JSON.stringify({ detail: 'pay' }),
  }),
  rpcError: (s) => ({
    status: 200,
    headers: {},
    body: (id) =>
      JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32602, message: s, data: { [s]: s } } }),
  }),
  toolError: (s) => ({
    status: 200,
    headers: {},
    body: (id) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        result: { isError: true, content: [{ type: 'text', text: `no: ${s}` }] },
      }),
  }),
  retryHeader: (s) => ({
    status: 429,
    headers: { 'retry-after': s, 'x-echo': s },
    body: () => JSON.stringify({ detail: s }),
  }),
};

function serve(echo: ReturnType<Echo>) {
  server.handle((request, response) => {
    const isRpc = request.url.endsWith('/mcp');
    response.writeHead(echo.status, {
      'content-type': 'application/json',
      ...(isRpc && !('x-ucp-auth-tier' in echo.headers) ? { 'x-ucp-auth-tier': 'token' } : {}),
      ...echo.headers,
    });
    response.end(echo.body(isRpc ? rpcIdOf(request.body) : null));
  });
}

/**
 * Everything a secret could hide in: message, stack, causes, fields, inspect, JSON, logs.
 * A successful answer is the application's own data, returned byte for byte by design
 * (`client.request` hands back what the service sent): only its logs are checked.
 */
function everythingSeen(outcome: unknown, logged: unknown[]): string {
  if (!(outcome instanceof Error)) return inspect(logged, { depth: 20 }).toLowerCase();
  const parts: string[] = [inspect(outcome, { depth: 20, showHidden: true })];
  try {
    parts.push(JSON.stringify(outcome) ?? '');
  } catch {
    // A cyclic value has no JSON; inspect covered it.
  }
  for (let error: unknown = outcome; error instanceof Error; error = error.cause) {
    parts.push(error.message, error.stack ?? '', String(error));
  }
  parts.push(inspect(logged, { depth: 20 }));
  return parts.join('\n').toLowerCase();
}

function recordingLogger(into: unknown[]): CatalogLogger {
  const record = (level: string) => (message: string, context?: unknown) =>
    into.push(level, message, context);
  return {
    debug: record('debug'),
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
  };
}

type Call = 'websites' | 'update' | 'catalog' | 'bearer';

async function run(call: Call, logged: unknown[]): Promise<unknown> {
  const client = new CatalogClient({
    apiKey: KEY,
    baseUrl: server.origin,
    mcpUrl: server.origin,
    maxRetries: 1,
    maxRetryDelayMs: 0,
    logger: recordingLogger(logged),
  });
  const calls: Record<Call, () => Promise<unknown>> = {
    websites: () => client.websites.search({ query: 'nike' }),
    update: () => client.collections.update('col_summer', { name: 'x' }),
    catalog: () => client.catalog.search({ query: 'shoes' }),
    bearer: () =>
      client.request({
        operation: 'conversations.turn',
        method: 'POST',
        path: '/v1/conversations/c1/turns',
        body: { message: 'hi' },
        retry: 'once',
        auth: { type: 'bearer', token: TOKEN },
      }),
  };
  return calls[call]().catch((error: unknown) => error);
}

describe('no secret, in any letter case, in anything the client hands back or logs', () => {
  it(
    'whatever the server echoes, however it cases it',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...Object.keys(ECHOES)),
          fc.constantFrom<Call>('websites', 'update', 'catalog', 'bearer'),
          fc.array(fc.boolean(), { minLength: 1, maxLength: 32 }),
          fc.boolean(),
          async (echoName, call, mask, echoToken) => {
            const secret = caseVariant(echoToken && call === 'bearer' ? TOKEN : KEY, mask);
            serve((ECHOES[echoName] as Echo)(secret));
            const logged: unknown[] = [];
            const seen = everythingSeen(await run(call, logged), logged);
            expect(seen).not.toContain(KEY.toLowerCase());
            expect(seen).not.toContain(TOKEN.toLowerCase());
          },
        ),
        { numRuns: RUNS },
      );
    },
    20_000 + RUNS * 250,
  );

  it.each(Object.keys(ECHOES))('the %s echo, lower-cased, on every call', async (echoName) => {
    for (const call of ['websites', 'update', 'catalog', 'bearer'] as const) {
      for (const secret of [KEY, TOKEN]) {
        serve((ECHOES[echoName] as Echo)(secret.toLowerCase()));
        const logged: unknown[] = [];
        const seen = everythingSeen(await run(call, logged), logged);
        expect(seen, `${echoName} on ${call}`).not.toContain(KEY.toLowerCase());
        if (call === 'bearer') expect(seen).not.toContain(TOKEN.toLowerCase());
      }
    }
  });
});
