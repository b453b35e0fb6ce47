// Red team of the wave 4f redactor (issue 33 step 2: decode fused into the scan, one walk per
// set of secrets). Each test here fails on wave4f/redact (b4c858e) and passed on wave 4e
// (66df504), where every set's matches were merged on the original text before replacing.
import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTurnSender } from '../src/conversations/index.js';
import { CatalogClient } from '../src/index.js';
import { errorTextForModel } from '../src/tools/error-text.js';
import { createCatalogToolList } from '../src/tools/index.js';
import { catalogPayload, rpcIdOf } from './support/fixtures.js';
import { sendJson, startTestServer, type TestServer } from './support/test-server.js';

const KEY = `ck_live_x${randomBytes(12).toString('hex')}`; // 33 characters
/** A token a service minted around the key it was called with (`<key>.<session>`). */
const SESSION = `sess_${randomBytes(16).toString('hex')}`;
const TOKEN = `${KEY}.${SESSION}`;

/** All an error shows: String, stack, inspect (hidden fields, cause), JSON, model text. */
function errorText(error: unknown): string {
  const value = error as Error;
  return [
    String(value),
    value.stack,
    inspect(value, { depth: 20, showHidden: true }),
    JSON.stringify(value),
    errorTextForModel(error),
  ].join('\n');
}

describe('F1: two secrets of different sets that overlap in one echo', () => {
  let service: TestServer;
  let form: (secret: string) => string = (secret) => secret;
  beforeAll(async () => {
    // The turns endpoint refuses the token and quotes the Authorization value it got.
    service = await startTestServer((request, response) => {
      const bearer = request.headers.authorization?.replace(/^Bearer /, '') ?? '';
      sendJson(response, 401, { detail: `invalid token ${form(bearer)} (expired)` });
    });
  });
  afterAll(() => service.close());

  const percent = (text: string) =>
    [...Buffer.from(text)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
  const base64 = (text: string) => Buffer.from(text).toString('base64');
  // What is left of the token once the key inside it is cut out, in each form: the session.
  it.each([
    ['as written', (text: string) => text, SESSION],
    ['every byte percent-encoded', percent, percent(SESSION)],
    // The key is 33 characters: its base64 is the first 44 characters of the token's.
    ['base64', base64, base64(TOKEN).slice(44)],
  ])(
    'a conversation token holding the key, echoed %s, is redacted whole',
    async (_name, encode, rest) => {
      form = encode;
      const client = new CatalogClient({ apiKey: KEY, baseUrl: service.origin, maxRetries: 0 });
      const sendTurn = createTurnSender({ client });
      const error = await sendTurn({ conversationId: 'conv_1', token: TOKEN, message: 'hi' }).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(service.requests.at(-1)?.headers.authorization).toBe(`Bearer ${TOKEN}`);
      const shown = errorText(error);
      expect(shown).toContain('invalid token [redacted]');
      // Wave 4f: the key's matcher ran first, so the token's own matcher no longer found the
      // token, and the rest of it went out (`[redacted].sess_…`). Wave 4e merged both sets'
      // spans on the original text.
      expect(shown).not.toContain(rest);
    },
  );

  // Retired (wave 4i, docs/SECURITY.md): "one set or several, the same secrets redact the same
  // text (property)". A redactor holds one set (the key, a call's token and credential), all
  // scanned in one pass, so there are no several sets; the test above proves F1 on a server.
});

// Not from the rewrite (wave 4e's walker does the same), found with the odd key shapes: a
// key of digits only, which a service that read it as a number echoes as a JSON number.
describe('F2: a key of digits echoed as a JSON number', () => {
  const DIGITS = '7340298815236641'; // below 2^53: JSON.parse keeps every digit
  let service: TestServer;
  beforeAll(async () => {
    service = await startTestServer((request, response) => {
      const key = Number(request.headers['x-api-key']);
      if (request.body.includes('tools/call')) {
        const structuredContent = catalogPayload();
        const [product] = structuredContent.products;
        if (product) Object.assign(product, { debug: { api_key: key } });
        const result = { content: [], structuredContent };
        return sendJson(response, 200, { jsonrpc: '2.0', id: rpcIdOf(request.body), result });
      }
      // A validation error quoting the input it read (FastAPI's `input`).
      const issue = { type: 'int_parsing', loc: ['header', 'x-api-key'], msg: 'bad', input: key };
      sendJson(response, 422, { detail: [issue] });
    });
  });
  afterAll(() => service.close());

  const client = () =>
    new CatalogClient({
      apiKey: DIGITS,
      baseUrl: service.origin,
      mcpUrl: `${service.origin}/mcp`,
      maxRetries: 0,
    });

  it('is not in the error of a 422 that quotes it', async () => {
    const error = await client()
      .websites.search({ query: 'nike' })
      .catch((caught: unknown) => caught);
    expect(service.requests.at(-1)?.headers['x-api-key']).toBe(DIGITS);
    expect(errorText(error)).toContain('HTTP 422');
    expect(errorText(error)).not.toContain(DIGITS);
  });

  it("is not in search_catalog's output", async () => {
    const [search] = createCatalogToolList({ client: client(), include: ['search_catalog'] });
    const input = { query: 'trail shoe', limit: null, cursor: null, placements: null };
    const output = await search?.execute(input as never);
    expect(JSON.stringify(output)).toContain('Trail shoe');
    expect(JSON.stringify(output)).not.toContain(DIGITS);
  });
});
