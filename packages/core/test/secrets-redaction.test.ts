import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedactor } from '../src/http/redact.js';
import { CatalogClient } from '../src/index.js';
import { errorTextForModel } from '../src/tools/error-text.js';
import { type AnyCatalogTool, createCatalogToolList } from '../src/tools/index.js';
import { rpcIdOf } from './support/fixtures.js';
import { sendJson, startTestServer, type TestServer } from './support/test-server.js';

// A standard-base64 credential, so it holds `+`, `/` and `=` that encoders rewrite.
function credentialToken(): string {
  for (;;) {
    const token = randomBytes(241).toString('base64');
    if (/\+/.test(token) && /\//.test(token) && token.endsWith('=')) return token;
  }
}
const TOKEN = credentialToken();
const AUTHORIZATION = `Payment ${TOKEN}`;
const KEY = 'ck_live_a+b/c=d%e f&g<h>9Zq7';

const b64 = (value: string) => Buffer.from(value).toString('base64');

/** Every form of `value` the service may echo, each the way a real encoder writes it. */
function echoes(value: string): Record<string, string> {
  return {
    raw: value,
    lower: value.toLowerCase(),
    upper: value.toUpperCase(),
    uriComponent: encodeURIComponent(value),
    uriLowerHex: encodeURIComponent(value).replace(/%[0-9A-F]{2}/g, (x) => x.toLowerCase()),
    form: new URLSearchParams({ v: value }).toString().slice(2),
    json: JSON.stringify(value).replace(/\//g, '\\/'),
    base64: b64(value),
    html: value.replace(/[/&<>"'+=]/g, (c) => `&#x${c.charCodeAt(0).toString(16)};`),
  };
}

/** The in-scope forms of `secret` found whole in `text` (fragments are retired, wave 4). */
function leaks(text: string, secret: string): string[] {
  const sources = [secret, encodeURIComponent(secret), b64(secret)];
  const haystack = text.toLowerCase();
  return sources.filter((source) => haystack.includes(source.toLowerCase()));
}

/** Everything an error shows: String, stack, inspect (cause included) and JSON. */
function everything(error: unknown): string {
  const value = error as Error & Record<string, unknown>;
  return [
    String(value),
    value.stack,
    inspect(value, { depth: 10, showHidden: true }),
    JSON.stringify(value),
    JSON.stringify(value.cause ?? null),
    JSON.stringify({ detail: value.detail, headers: value.headers, message: value.message }),
  ].join('\n');
}

let server: TestServer;
let status = 400;
beforeAll(async () => {
  server = await startTestServer((request, response) => {
    const sent = request.headers.authorization;
    if (sent === undefined) {
      response.setHeader(
        'www-authenticate',
        `Payment id="ch_1", realm="r", method="test", intent="charge", request="${Buffer.from(JSON.stringify({ amount: '25', currency: 'usd' })).toString('base64url')}"`,
      );
      return sendJson(response, 402, { detail: 'Payment required' });
    }
    // The paid resend: refused, every echo form of the Authorization value in the answer.
    const forms = Object.entries(echoes(sent))
      .map(([name, form]) => `${name}=${form}`)
      .join(' | ');
    sendJson(
      response,
      status,
      { detail: `Credential refused (${forms}); prefix ${TOKEN.slice(0, 40)}…` },
      { 'x-echo': encodeURIComponent(sent), 'x-echo-b64': b64(sent) },
    );
  });
});
afterAll(() => server.close());

function paidClient(): CatalogClient {
  return new CatalogClient({
    apiKey: 'ck_test_5b7d1e0f9a8c4e21b3d6',
    baseUrl: server.origin,
    mcpUrl: server.origin,
    maxRetries: 0,
    payment: { pay: () => AUTHORIZATION },
  });
}

describe('a payment credential echoed by the paid resend never leaks', () => {
  it.each([400, 403, 404, 409, 500])(
    'HTTP %i: not in the error object (message, detail, headers, stack, cause, JSON)',
    async (answer) => {
      status = answer;
      const client = paidClient();
      for (const call of [
        () => client.collections.update('col_1', { name: 'New' }),
        () => client.websites.search({ query: 'nike' }),
      ]) {
        const error = await call().catch((caught: unknown) => caught);
        expect((error as { status?: number }).status).toBe(answer);
        expect(leaks(everything(error), TOKEN)).toEqual([]);
        expect(everything(error)).toContain('[redacted]');
        expect(leaks(errorTextForModel(error) ?? '', TOKEN)).toEqual([]);
      }
    },
  );

  it.each([400, 403, 404, 409, 500])(
    'HTTP %i: not in the model text of update_collection',
    async (answer) => {
      status = answer;
      const [update] = createCatalogToolList({
        client: paidClient(),
        include: ['update_collection'],
      }) as AnyCatalogTool[];
      const text = await update!.execute({ collection_id: 'col_1', name: 'New' } as never).then(
        () => 'resolved',
        (error: unknown) => update!.errorToModelOutput(error) ?? `rethrown ${String(error)}`,
      );
      expect(text).not.toBe('resolved');
      expect(leaks(text, TOKEN)).toEqual([]);
    },
  );

  it('nor on the MCP endpoint, also when the paid answer is a JSON-RPC error', async () => {
    status = 400;
    const error = await paidClient()
      .catalog.search({ query: 'x' })
      .catch((caught: unknown) => caught);
    expect(leaks(everything(error), TOKEN)).toEqual([]);
  });

  // Retired (wave 4i, docs/SECURITY.md): "and the client redactor knows it afterwards (model
  // text of a later answer)". A credential is a secret of the call that sent it, redacted in
  // that call's answers (secrets-credentials.test.ts); another call's answer repeating a spent
  // credential is the service choosing to, and the service holds it.
});

describe('a key with + / = % & < > and a space', () => {
  it.each(Object.entries(echoes(KEY)))(
    'echoed as %s is redacted from an error',
    async (_name, form) => {
      const home = await startTestServer((_request, response) =>
        sendJson(response, 401, { detail: `bad key ${form}` }, { 'x-echo': form }),
      );
      try {
        const client = new CatalogClient({ apiKey: KEY, baseUrl: home.origin, maxRetries: 0 });
        const error = await client.websites
          .search({ query: 'x' })
          .catch((caught: unknown) => caught);
        const shown = everything(error);
        expect(shown).not.toContain(form);
        expect(leaks(shown, KEY)).toEqual([]);
        const redacted = client.redact(`text ${form} text`);
        expect(redacted).toContain('[redacted]');
        expect(redacted).not.toContain(form);
        expect(leaks(redacted, KEY)).toEqual([]);
      } finally {
        await home.close();
      }
    },
  );

  it('echoed percent-encoded inside a successful MCP answer, is redacted from what the model reads', async () => {
    const home = await startTestServer((request, response) =>
      sendJson(
        response,
        200,
        {
          jsonrpc: '2.0',
          id: rpcIdOf(request.body),
          result: {
            content: [],
            structuredContent: {
              products: [{ id: 'p', title: `for ${encodeURIComponent(KEY)}`, variants: [] }],
            },
          },
        },
        { 'x-ucp-auth-tier': 'token' },
      ),
    );
    try {
      const [search] = createCatalogToolList({
        clientOptions: { apiKey: KEY, mcpUrl: home.origin },
        include: ['search_catalog'],
      }) as AnyCatalogTool[];
      const output = await search!.execute({ query: 'x' } as never);
      const text = search!.toModelOutput(output as never);
      expect(text).not.toContain(encodeURIComponent(KEY));
      expect(text).toContain('for [redacted]');
    } finally {
      await home.close();
    }
  });
});

describe('linear time', () => {
  it('redacts 10 MB of hostile text in time linear in its size', () => {
    const redact = createRedactor(KEY, TOKEN, 'ck_test_5b7d1e0f9a8c4e21b3d6');
    const near = `${KEY.slice(0, -1)}${encodeURIComponent(KEY).slice(0, -3)}${TOKEN.slice(0, 22)}%25&#x`;
    const small = near.repeat(Math.ceil(1_000_000 / near.length));
    const large = near.repeat(Math.ceil(10_000_000 / near.length));
    const time = (text: string) => {
      const start = performance.now();
      redact(text);
      return performance.now() - start;
    };
    time(small);
    const smallMs = Math.max(Math.min(time(small), time(small)), 5);
    const largeMs = time(large);
    // Ten times the text, well under a hundred times the time: no quadratic blow-up.
    expect(largeMs).toBeLessThan(smallMs * 40);
    // About 2 s alone on the shared 2-core machine; generous, since other sessions share it.
    expect(largeMs).toBeLessThan(15_000);
  });

  // Red team (wave 4, A5): text of escapes only, nested ones among them, took about 6 s per
  // 10 MB (one regular-expression replace and a position map per escape). Now one pass.
  it('redacts 10 MB of escapes, nested ones too, in time linear in its size', () => {
    const redact = createRedactor(KEY, TOKEN);
    const unit = '%2F&amp;\\u00e9&#x2F;&#00047;\\/%25%252541&amp;#x26;\\u0026#x41;';
    const small = unit.repeat(Math.ceil(1_000_000 / unit.length));
    const large = unit.repeat(Math.ceil(10_000_000 / unit.length));
    const time = (text: string) => {
      const start = performance.now();
      redact(text);
      return performance.now() - start;
    };
    time(small);
    const smallMs = Math.max(Math.min(time(small), time(small)), 5);
    const largeMs = time(large);
    expect(largeMs).toBeLessThan(smallMs * 40);
    // Under 1 s alone (bench:redact); generous here, since other sessions share the machine.
    expect(largeMs).toBeLessThan(5_000);
  });
});
