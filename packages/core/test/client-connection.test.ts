import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CatalogClient, type CatalogClientOptions, PaymentRequiredError } from '../src/index.js';
import { decodePaymentChallenges } from '../src/payment/challenge.js';
import { TEST_KEY } from './support/fixtures.js';
import { sendJson, startTestServer, type TestServer } from './support/test-server.js';

// The 402 is mapped in http/, which knows nothing of payments; the client's connection
// (client-connection.ts) names the challenges that cannot be paid. These tests hold that
// on both paths (REST and MCP), with and without the payment option.

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const CREDENTIAL = 'Payment cred_abc123';

function challenge(params: string): string {
  const request = b64({ amount: '25', currency: 'usd' });
  return `Payment id="ch_1", realm="shop", method="test", intent="charge", request="${request}"${params}`;
}

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server.close());

/** Answers every request without `CREDENTIAL` with a 402 carrying `header`. */
function challengeWith(header: string) {
  server.handle((request, response) => {
    if (request.headers.authorization === CREDENTIAL) {
      return sendJson(response, 200, { websites: [] });
    }
    response.setHeader('www-authenticate', header);
    sendJson(response, 402, { detail: 'Payment required' });
  });
}

function client(options: Partial<CatalogClientOptions> = {}) {
  return new CatalogClient({
    apiKey: TEST_KEY,
    baseUrl: server.origin,
    mcpUrl: server.origin,
    maxRetries: 0,
    ...options,
  });
}

const calls = {
  'websites.search (REST)': (c: CatalogClient) => c.websites.search({ query: 'x' }),
  'catalog.search (MCP)': (c: CatalogClient) => c.catalog.search({ query: 'x' }),
};

describe.each(Object.entries(calls))('a 402 of %s', (_name, call) => {
  it('names a malformed challenge without the payment option', async () => {
    challengeWith(challenge(', expires="yesterday"'));
    const error = await call(client()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expect((error as Error).message).toContain(
      'Payment challenge 1: expires must be an RFC 3339 date-time',
    );
    expect(server.requests).toHaveLength(1);
  });

  it('names it with the payment option, which is never asked', async () => {
    challengeWith(challenge(', expires="yesterday"'));
    let asked = 0;
    const pay = () => {
      asked++;
      return CREDENTIAL;
    };
    const paying = client({ payment: { pay } });
    const error = await call(paying).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expect((error as Error).message).toContain('expires must be an RFC 3339 date-time');
    expect(asked).toBe(0);
    expect(server.requests).toHaveLength(1);
  });

  it('names each problem once, and nothing for a well-formed challenge', async () => {
    challengeWith(challenge(''));
    const error = await call(client()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expect((error as Error).message).not.toContain('Payment challenge');
    challengeWith(`${challenge(', expires="1"')}, ${challenge(', expires="2"')}`);
    const two = await call(client()).catch((caught: unknown) => caught);
    const message = (two as Error).message;
    expect(message.match(/Payment challenge 1:/g)).toHaveLength(1);
    expect(message.match(/Payment challenge 2:/g)).toHaveLength(1);
  });
});

describe('a repeated challenge parameter survives redaction', () => {
  // 999.99 USD, then 0.01 USD: which one counts is ambiguous, so the challenge is unpayable.
  const twice = `, request="${b64({ amount: '1', currency: 'usd' })}"`;

  it.each([
    ['echoes nothing secret', ''],
    ['echoes the key (the redactor copies it)', `, opaque="${TEST_KEY}"`],
  ])(
    'a challenge that %s: the error names the repeat and stays unpayable',
    async (_name, extra) => {
      challengeWith(challenge(`${twice}${extra}`));
      const error = await client()
        .websites.search({ query: 'x' })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(PaymentRequiredError);
      const { message, challenges } = error as PaymentRequiredError;
      expect(message).toContain('Payment challenge 1: request given more than once');
      expect(JSON.stringify(challenges)).not.toContain(TEST_KEY);
      // What the tools and an application read of the error: no price to show or pay.
      expect(decodePaymentChallenges(challenges)).toEqual([]);
    },
  );
});

describe('the payment step wraps sending', () => {
  it('a well-formed challenge is paid once and the resend carries the credential', async () => {
    challengeWith(challenge(''));
    let asked = 0;
    const pay = () => {
      asked++;
      return CREDENTIAL;
    };
    const paying = client({ payment: { pay } });
    await expect(paying.websites.search({ query: 'x' })).resolves.toEqual({ websites: [] });
    expect(asked).toBe(1);
    expect(server.requests.map((request) => request.headers.authorization)).toEqual([
      undefined,
      CREDENTIAL,
    ]);
  });

  it('without the payment option a 402 is never resent', async () => {
    challengeWith(challenge(''));
    const error = await client()
      .websites.search({ query: 'x' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expect(server.requests).toHaveLength(1);
  });

  it('shows neither the key nor the connection internals when serialised or inspected', () => {
    const paying = client({ payment: { pay: () => CREDENTIAL } });
    const text = JSON.stringify(paying);
    expect(text).not.toContain(TEST_KEY);
    expect(JSON.parse(text)).toMatchObject({ apiKey: '[redacted]', baseUrl: server.origin });
    // The inspect hook is an instance property (a computed method key would keep the class
    // in bundles that never use it): not enumerable, so not in JSON or Object.keys.
    expect(inspect(paying, { showHidden: true, depth: 10 })).toBe(`CatalogClient ${text}`);
    expect(Object.keys(paying)).toEqual(['websites', 'collections', 'catalog', 'conversations']);
  });
});
