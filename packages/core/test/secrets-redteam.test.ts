// Red-team findings on secret redaction (issue 23, second round): each test here failed
// before its fix (F1 credentials evicted, F3 superlinear time, F7 missed encodings).
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRedactor } from '../src/http/redact.js';
import { CatalogClient } from '../src/index.js';
import { type AnyCatalogTool, createCatalogToolList } from '../src/tools/index.js';
import { catalogPayload, rpcIdOf } from './support/fixtures.js';
import { sendJson, startTestServer, type TestServer } from './support/test-server.js';

const KEY = 'ck_live_0123456789abcdef0123456789abcdef';
const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const CHALLENGE = `Payment id="ch_1", realm="shop", method="test", intent="charge", request="${b64url({ amount: '25', currency: 'usd' })}"`;

/** A credential token as wallets make them: base64url JSON with a long signature. */
const newToken = (n: number) =>
  b64url({ challenge: { id: 'ch_1' }, payload: { n, sig: randomBytes(64).toString('hex') } });

/** Whether any 40-character run of `token` is in `text` (what a replay needs). */
const leaks = (text: string, token: string) => {
  for (let start = 0; start + 40 <= token.length; start += 10) {
    if (text.includes(token.slice(start, start + 40))) return true;
  }
  return false;
};

describe('F1: the credentials of many overlapping paid calls', () => {
  let server: TestServer;
  let held: (() => void)[] = [];
  beforeEach(async () => {
    held = [];
    server = await startTestServer();
  });
  afterEach(() => server.close());

  /**
   * A catalog MCP endpoint that charges every call and answers a paid one with its own
   * credential in a product title, once `release()` is called for it.
   */
  function echoingCatalog(release: (send: () => void, token: string) => void) {
    server.handle((request, response) => {
      const auth = request.headers.authorization;
      const id = rpcIdOf(request.body);
      if (!auth?.startsWith('Payment ')) {
        response.setHeader('www-authenticate', CHALLENGE);
        return sendJson(response, 402, {
          jsonrpc: '2.0',
          id,
          error: { code: -32042, message: 'pay' },
        });
      }
      const token = auth.slice('Payment '.length);
      const structuredContent = catalogPayload();
      (structuredContent.products[0] as { title: string }).title = `Receipt for ${token}`;
      release(
        () =>
          sendJson(
            response,
            200,
            { jsonrpc: '2.0', id, result: { content: [], structuredContent } },
            { 'x-ucp-auth-tier': 'token' },
          ),
        token,
      );
    });
  }

  function searchTool(tokens: string[]) {
    const client = new CatalogClient({
      apiKey: KEY,
      mcpUrl: server.origin,
      maxRetries: 0,
      payment: {
        pay: () => {
          const token = newToken(tokens.length);
          tokens.push(token);
          return `Payment ${token}`;
        },
      },
    });
    const [tool] = createCatalogToolList({
      client,
      include: ['search_catalog'],
    }) as AnyCatalogTool[];
    const input = { query: 'trail shoe', limit: null, cursor: null, placements: null } as never;
    return async () => {
      const output = await tool!.execute(input);
      return `${JSON.stringify(output)}\n${String(tool!.toModelOutput(output as never))}`;
    };
  }

  it('6 paid calls answered only once all 6 credentials were sent leak none', async () => {
    echoingCatalog((send) => {
      held.push(send);
      if (held.length === 6) for (const release of held.splice(0)) release();
    });
    const tokens: string[] = [];
    const search = searchTool(tokens);
    const texts = await Promise.all(Array.from({ length: 6 }, () => search()));
    expect(texts.join('\n')).toContain('Receipt for [redacted]');
    expect(tokens.filter((token) => texts.some((text) => leaks(text, token)))).toEqual([]);
  });

  it("a call's own credential redacts its answer after 260 other paid calls", async () => {
    let first: (() => void) | undefined;
    echoingCatalog((send) => {
      if (first === undefined) first = send;
      else send();
    });
    const tokens: string[] = [];
    const search = searchTool(tokens);
    const slow = search();
    while (first === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
    for (let batch = 0; batch < 13; batch++) {
      await Promise.all(Array.from({ length: 20 }, () => search()));
    }
    first();
    const text = await slow;
    expect(tokens).toHaveLength(261);
    expect(text).toContain('Receipt for [redacted]');
    expect(leaks(text, tokens[0] as string)).toBe(false);
  }, 30_000);
});

describe('F3: redaction stays linear for secrets of repeated punctuation', () => {
  const cases: [string, string, string][] = [
    ["'%' x 1500, text of %25 runs", '%'.repeat(1500), `${'%25'.repeat(1499)}x`],
    ["'.' x 1500, text of &#46;", '.'.repeat(1500), `${'&#46;'.repeat(1499)}x`],
    ["'-' x 1500, text of dashes", '-'.repeat(1500), `${'-'.repeat(1499)}x`],
    ["'%' x 1000, text of %", '%'.repeat(1000), '%'.repeat(999)],
  ];
  it.each(cases)('%s: 1 MB in well under a second or two', (_name, secret, unit) => {
    const redact = createRedactor(KEY, secret);
    const text = unit.repeat(Math.ceil(1_000_000 / unit.length));
    const time = (input: string) => {
      const start = performance.now();
      redact(input);
      return performance.now() - start;
    };
    // The best of three: other processes share the CPU, and a GC pause is not a trend.
    const best = (input: string) => Math.min(time(input), time(input), time(input));
    const small = Math.max(best(text.slice(0, 100_000)), 20);
    const large = best(text);
    // Before: 12.7 s for 0.1 MB and 90.9 s for 1 MB of the first case.
    expect(large).toBeLessThan(3_000);
    expect(large).toBeLessThan(small * 40);
  });
});

describe('F7: encodings and disguises of an echoed secret', () => {
  const token = `${randomBytes(120).toString('base64').replace(/=+$/, '')}+/=`;
  const plusKey = 'ck_live_a+b/c=d9Zq7wXy3vT8sR2pQ1';
  const webKey = 'ck_test_webchat_secret_7q2x9v4m';
  const pct = (text: string) =>
    [...Buffer.from(text)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
  // [name, secret, echo, characters allowed to stay]. The disguises this list once held
  // (reversed, hex, fullwidth, fragments, split, triple encoding, `\\x`) are out of scope
  // since wave 4 (docs/SECURITY.md): the service that would disguise a key already holds it.
  const forms: [string, string, string, number?][] = [
    [
      'HTML5 named entities',
      plusKey,
      plusKey.replace(/\+/g, '&plus;').replace(/\//g, '&sol;').replace(/=/g, '&equals;'),
    ],
    ['every character percent-encoded', webKey, pct(webKey)],
    [
      'letters as HTML decimal entities',
      webKey,
      [...webKey].map((c) => `&#${c.charCodeAt(0)};`).join(''),
    ],
    ['base64 of the token alone', token, Buffer.from(token).toString('base64')],
  ];
  it.each(forms)('%s', (_name, secret, echoed, allowed = 4) => {
    const out = createRedactor(secret)(`The service said: <${echoed}> (end)`);
    expect(out).toContain('[redacted]');
    expect(out.startsWith('The service said: <')).toBe(true);
    expect(out.endsWith('> (end)')).toBe(true);
    // Nothing longer than a few characters of the echo survives.
    const rest = out
      .slice('The service said: <'.length, -'> (end)'.length)
      .replace(/\[redacted\]/g, '');
    expect(rest.replace(/[\s\u00ad]/g, '').length).toBeLessThanOrEqual(allowed);
  });

  it('leaves ordinary text alone', () => {
    const redact = createRedactor(webKey, token, plusKey);
    const text = 'Payment required: 0.25 USD for ck_test keys &amp; 100% of %25 paths \\u002b';
    expect(redact(text)).toBe(text);
  });
});
