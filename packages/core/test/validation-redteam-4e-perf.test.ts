import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CatalogClient, ProtocolError, RequestValidationError } from '../src/index.js';
import { rpcIdOf, TEST_KEY, toolsCallAnswer } from './support/fixtures.js';
import { sendJson, startTestServer, type TestServer } from './support/test-server.js';

/*
 * Red team 4e (perf). Two regressions of cba4b75's faster request copy and envelope check.
 * F1: `refusal` skips Object.prototype.toString when the prototype is Object.prototype or
 * null, but the prototype says nothing of internal slots: a Date, RegExp, Error, boxed
 * primitive or `arguments` whose prototype was reset is sent as `{}` or `{"0":"a",…}`
 * (before: "cannot be sent as JSON (Date)", nothing sent). F2: a malformed JSON-RPC envelope
 * is now parseResponse's ProtocolError, without the answer's HTTP status (before: 200).
 */

let server: TestServer;
let envelope: (id: unknown) => unknown = (id) => toolsCallAnswer(id);
beforeAll(async () => {
  server = await startTestServer((request, response) =>
    sendJson(response, 200, envelope(rpcIdOf(request.body)), { 'x-ucp-auth-tier': 'token' }),
  );
});
afterAll(() => server.close());
beforeEach(() => {
  envelope = (id) => toolsCallAnswer(id);
});

const client = () =>
  new CatalogClient({ apiKey: TEST_KEY, mcpUrl: `${server.origin}/ucp`, maxRetries: 0 });

/** A built-in object whose prototype was replaced: its internal slot is still there. */
const reset = (value: object, to: object | null = Object.prototype) =>
  Object.setPrototypeOf(value, to) as object;

describe('red team 4e perf: built-ins with a reset prototype', () => {
  const cases: Array<[string, () => object, string]> = [
    ['a Date', () => reset(new Date(0)), 'Date'],
    ['a boxed string', () => reset(new String('abc')), 'String'],
    ['a boxed number, null prototype', () => reset(new Number(5), null), 'Number'],
    ['a RegExp', () => reset(/x/g), 'RegExp'],
    ['an Error', () => reset(new Error('boom')), 'Error'],
  ];
  for (const [what, make, tag] of cases) {
    it(`refuses ${what} in meta, naming the field; nothing is sent`, async () => {
      const before = server.requests.length;
      const call = client().catalog.search({ query: 'x' }, { meta: { v: make() } });
      await expect(call).rejects.toThrow(RequestValidationError);
      await expect(call).rejects.toThrow(`meta.v: cannot be sent as JSON (${tag})`);
      expect(server.requests.length).toBe(before);
    });
  }
});

describe('red team 4e perf: a malformed JSON-RPC envelope', () => {
  it('is a ProtocolError that keeps the HTTP status, as the other envelope errors do', async () => {
    envelope = (id) => ({ ...(toolsCallAnswer(id) as object), jsonrpc: '1.0' });
    const error = await client()
      .catalog.search({ query: 'x' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).message).toContain('jsonrpc');
    expect((error as ProtocolError).status).toBe(200);
  });
});
