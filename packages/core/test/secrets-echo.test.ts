import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTurnSender } from '../src/conversations/index.js';
import { CatalogClient } from '../src/index.js';
import { errorTextForModel } from '../src/tools/error-text.js';
import { type AnyCatalogTool, createCatalogToolList } from '../src/tools/index.js';
import { catalogPayload, rpcIdOf } from './support/fixtures.js';
import {
  type ReceivedRequest,
  sendJson,
  startTestServer,
  type TestServer,
} from './support/test-server.js';

/*
 * Issue 33, done-when: an echoed key in an error detail, a product field and a redirect URL,
 * in each form a service or proxy echoes it (as written, any letter case, percent-encoded,
 * JSON-escaped, HTML-escaped, base64 of the secret alone), is never in model text, errors,
 * tool output or logs. A misbehaving loopback server echoes every secret it receives (the
 * API key, a conversation token, a payment credential) through the real client and tools.
 */

const KEY = `ck_live_${randomBytes(12).toString('hex')}`;
const TOKEN = `tok_${randomBytes(24).toString('base64url')}`;
/** Standard base64 with `+`, `/` and `=`, which every encoder rewrites. */
const CREDENTIAL = (() => {
  for (;;) {
    const value = randomBytes(61).toString('base64');
    if (value.includes('+') && value.includes('/') && value.endsWith('=')) return value;
  }
})();

const hex = (code: number) => code.toString(16).padStart(2, '0');

/** Each in-scope form of `secret`, written the way a real encoder writes it. */
const FORMS: Record<string, (secret: string) => string> = {
  raw: (secret) => secret,
  lower: (secret) => secret.toLowerCase(),
  upper: (secret) => secret.toUpperCase(),
  mixedCase: (secret) =>
    [...secret].map((c, i) => (i % 2 ? c.toUpperCase() : c.toLowerCase())).join(''),
  uriComponent: (secret) => encodeURIComponent(secret),
  everyBytePercent: (secret) =>
    [...Buffer.from(secret)].map((byte) => `%${hex(byte).toUpperCase()}`).join(''),
  form: (secret) => new URLSearchParams({ v: secret }).toString().slice(2),
  jsonUnicode: (secret) =>
    [...secret].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  jsonSlashes: (secret) => JSON.stringify(secret).slice(1, -1).replaceAll('/', '\\/'),
  htmlHex: (secret) => [...secret].map((c) => `&#x${hex(c.charCodeAt(0))};`).join(''),
  htmlDecimal: (secret) => [...secret].map((c) => `&#${c.charCodeAt(0)};`).join(''),
  htmlNamed: (secret) =>
    secret.replace(
      /[+/=_]/g,
      (c) => ({ '+': '&plus;', '/': '&sol;', '=': '&equals;' })[c] ?? '&lowbar;',
    ),
  // Escaped twice (red team wave 4: a URL encoded again, references in raw JSON text) was
  // retired in wave 4c: out of scope, docs/SECURITY.md.
  base64: (secret) => Buffer.from(secret).toString('base64'),
  base64Unpadded: (secret) => Buffer.from(secret).toString('base64').replace(/=+$/, ''),
  base64url: (secret) => Buffer.from(secret).toString('base64url'),
};

type Place = 'error detail' | 'product field' | 'redirect URL';
let form = 'raw';
let place: Place = 'error detail';

/** The secrets a request carried: its API key and its Authorization token. */
function secretsOf(request: ReceivedRequest): string[] {
  const key = request.headers['x-api-key'];
  const authorization = request.headers.authorization;
  const token = authorization?.replace(/^\S+\s+/, '');
  return [typeof key === 'string' ? key : '', token ?? ''].filter((secret) => secret !== '');
}

const echoOf = (request: ReceivedRequest) =>
  secretsOf(request)
    .map((secret) => FORMS[form]?.(secret) ?? '')
    .join(' ; ');

/** A payment challenge (the paid client answers it with `Payment <CREDENTIAL>`). */
function challenge(response: ServerResponse) {
  const request = Buffer.from(JSON.stringify({ amount: '25', currency: 'usd' })).toString(
    'base64url',
  );
  response.setHeader(
    'www-authenticate',
    `Payment id="ch_1", realm="r", method="test", intent="charge", request="${request}"`,
  );
  sendJson(response, 402, { detail: 'Payment required' });
}

let service: TestServer;
beforeAll(async () => {
  service = await startTestServer((request, response) => {
    const paid = request.headers['x-paid'] === 'yes';
    if (paid && request.headers.authorization === undefined) return challenge(response);
    const echo = echoOf(request);
    if (place === 'redirect URL' && !request.url.includes('echo=')) {
      // Same origin (followed for a search), then another origin (refused).
      const target = request.url.includes('/mcp')
        ? `http://${encodeURIComponent(secretsOf(request)[0] ?? '')}.evil.test/cb?echo=${echo}`
        : `${request.url}${request.url.includes('?') ? '&' : '?'}echo=${echo}`;
      response.writeHead(302, { location: target });
      return response.end();
    }
    if (place === 'product field' && request.body.includes('tools/call')) {
      const structuredContent = catalogPayload();
      const [product] = structuredContent.products;
      if (product) product.title = `Trail shoe (debug: ${echo})`;
      return sendJson(response, 200, {
        jsonrpc: '2.0',
        id: rpcIdOf(request.body),
        result: { content: [], structuredContent: { ...structuredContent, [echo]: echo } },
      });
    }
    // An error detail (also where a redirect lands: a 404 naming the URL it was sent to).
    const status = place === 'redirect URL' ? 404 : 400;
    const detail = `${request.method} ${request.url} refused; you sent ${echo}`;
    sendJson(response, status, { detail, debug: { [echo]: echo } }, { 'x-debug': 'see body' });
  });
});
afterAll(() => service.close());

/** Everything a logger was handed. */
const logged: string[] = [];
const logger = {
  debug: (...args: unknown[]) => logged.push(inspect(args, { depth: 20 })),
  info: (...args: unknown[]) => logged.push(inspect(args, { depth: 20 })),
  warn: (...args: unknown[]) => logged.push(inspect(args, { depth: 20 })),
  error: (...args: unknown[]) => logged.push(inspect(args, { depth: 20 })),
};

function client(paid = false): CatalogClient {
  return new CatalogClient({
    apiKey: KEY,
    baseUrl: service.origin,
    mcpUrl: `${service.origin}/mcp`,
    maxRetries: 0,
    logger,
    ...(paid
      ? { headers: { 'x-paid': 'yes' }, payment: { pay: () => `Payment ${CREDENTIAL}` } }
      : {}),
  });
}

/** All an error shows: String, stack, inspect (hidden fields, cause), JSON, model text. */
function errorText(error: unknown): string {
  const value = error as Error & Record<string, unknown>;
  return [
    String(value),
    value.stack,
    inspect(value, { depth: 20, showHidden: true }),
    JSON.stringify(value),
    errorTextForModel(error),
  ].join('\n');
}

/**
 * The error a client call failed with, if any. A successful answer the client returns is
 * the application's own data (the tools redact what reaches the model and the browser),
 * except a paid one, which leaves the client redacted with its credential.
 */
async function outcome(call: () => Promise<unknown>, paid = false): Promise<string> {
  return call().then(
    (value) => (paid ? `${JSON.stringify(value)}\n${inspect(value, { depth: 20 })}` : ''),
    (error: unknown) => errorText(error),
  );
}

async function toolOutcome(tool: AnyCatalogTool | undefined, input: unknown): Promise<string> {
  if (tool === undefined) throw new Error('tool missing');
  return tool.execute(input as never).then(
    (output) => `${JSON.stringify(output)}\n${tool.toModelOutput(output as never)}`,
    (error: unknown) => `${errorText(error)}\n${tool.errorToModelOutput(error) ?? ''}`,
  );
}

/** The echo forms of `secret` found in `text` (letter case aside; also JSON-escaped). */
function leaks(text: string, secret: string): string[] {
  const haystack = text.toLowerCase();
  return Object.entries(FORMS).flatMap(([name, encode]) => {
    const written = encode(secret).toLowerCase();
    const inJson = JSON.stringify(written).slice(1, -1);
    return haystack.includes(written) || haystack.includes(inJson) ? [name] : [];
  });
}

const SEARCH = { query: 'trail shoe', limit: null, cursor: null, placements: null };
const PLACES: Place[] = ['error detail', 'product field', 'redirect URL'];

describe.each(PLACES)('a secret echoed in a %s', (where) => {
  it.each(Object.keys(FORMS))(
    'as %s: never in errors, tool output, model text or logs',
    async (name) => {
      place = where;
      form = name;
      logged.length = 0;
      const plain = client();
      const paid = client(true);
      const [searchCatalog] = createCatalogToolList({ client: plain, include: ['search_catalog'] });
      const [paidSearch] = createCatalogToolList({ client: paid, include: ['search_catalog'] });
      const sendTurn = createTurnSender({ client: plain });
      const seen = [
        await outcome(() => plain.websites.search({ query: 'nike' })),
        await outcome(() => plain.catalog.search({ query: 'trail shoe' })),
        await outcome(() => paid.websites.search({ query: 'nike' }), true),
        await outcome(() => paid.catalog.search({ query: 'trail shoe' }), true),
        await outcome(() => sendTurn({ conversationId: 'conv_1', token: TOKEN, message: 'hello' })),
        await toolOutcome(searchCatalog, SEARCH),
        await toolOutcome(paidSearch, SEARCH),
        ...logged,
      ].join('\n');
      // The server did echo: each secret reached it and came back in this form.
      expect(service.requests.some((request) => secretsOf(request).includes(TOKEN))).toBe(true);
      expect(service.requests.some((request) => secretsOf(request).includes(CREDENTIAL))).toBe(
        true,
      );
      expect({
        key: leaks(seen, KEY),
        token: leaks(seen, TOKEN),
        credential: leaks(seen, CREDENTIAL),
      }).toEqual({ key: [], token: [], credential: [] });
      expect(seen).toContain('[redacted]');
    },
  );
});
