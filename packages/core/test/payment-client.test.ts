import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CatalogClient,
  type CatalogClientOptions,
  ConfigurationError,
  PaymentRequiredError,
} from '../src/index.js';
import type { PaymentChallenge, PaymentContext, PaymentReceipt } from '../src/payment/index.js';
import { TEST_KEY } from './support/fixtures.js';
import { sendJson, startTestServer, type TestServer } from './support/test-server.js';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const CHALLENGE = `Payment id="ch_1", realm="shop, payments", method="test", intent="charge", request="${b64({ amount: '25', currency: 'usd' })}", expires="2999-01-01T00:00:00Z"`;
const CREDENTIAL = 'Payment cred_abc123';
const RECEIPT = b64({ method: 'test', reference: 'pay_1', status: 'success', challengeId: 'ch_1' });

function challenge(response: ServerResponse) {
  response.setHeader('www-authenticate', CHALLENGE);
  sendJson(response, 402, { detail: 'Payment required' });
}

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server.close());

/** Challenges every request without `CREDENTIAL`; with it, answers `body` and a receipt. */
function paidOnly(body: unknown) {
  server.handle((request, response) => {
    if (request.headers.authorization !== CREDENTIAL) return challenge(response);
    response.setHeader('payment-receipt', RECEIPT);
    sendJson(response, 200, body);
  });
}

function clientWith(
  pay: (c: readonly PaymentChallenge[], x: PaymentContext) => string | undefined,
  options: Partial<CatalogClientOptions> = {},
) {
  return new CatalogClient({
    apiKey: TEST_KEY,
    baseUrl: server.origin,
    mcpUrl: server.origin,
    payment: { pay },
    ...options,
  });
}

/** A pay hook that always pays, and how often it was asked. */
function countingPayer() {
  const payer = {
    calls: 0,
    pay: () => {
      payer.calls++;
      return CREDENTIAL;
    },
  };
  return payer;
}

describe('the payment option', () => {
  it('pays a challenge, resends once with the credential and the key, and reports the receipt', async () => {
    paidOnly({ websites: [{ id: 'web_1', url: 'https://a.example' }] });
    const seen: { challenges: readonly PaymentChallenge[]; context: PaymentContext }[] = [];
    const receipts: PaymentReceipt[] = [];
    const client = new CatalogClient({
      apiKey: TEST_KEY,
      baseUrl: server.origin,
      payment: {
        pay: (challenges, context) => {
          seen.push({ challenges, context });
          return CREDENTIAL;
        },
        onReceipt: (receipt) => receipts.push(receipt),
      },
    });
    const { websites } = await client.websites.search({ query: 'nike' });
    expect(websites).toEqual([expect.objectContaining({ id: 'web_1', url: 'https://a.example' })]);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.headers).toMatchObject({
      'x-api-key': TEST_KEY,
      authorization: CREDENTIAL,
    });
    expect(server.requests[1]?.url).toBe(server.requests[0]?.url);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.challenges).toEqual([
      expect.objectContaining({
        id: 'ch_1',
        realm: 'shop, payments',
        method: 'test',
        amount: '25',
        currency: 'usd',
      }),
    ]);
    expect(seen[0]?.context).toMatchObject({
      operation: 'websites.search',
      method: 'GET',
      mutates: false,
      url: expect.stringMatching(/\/v1\/websites\/search\?query=nike/),
    });
    expect(receipts).toEqual([
      expect.objectContaining({
        method: 'test',
        reference: 'pay_1',
        status: 'success',
        challengeId: 'ch_1',
        raw: RECEIPT,
      }),
    ]);
  });

  // Red team 37 F7: read-only was any `catalog.` prefix, so a caller's own POST named
  // `catalog.createOrder` reached the pay hook as read-only. An exact list of operations now.
  it('only the MCP reads are read-only POSTs: a REST POST named catalog.* mutates', async () => {
    server.handle((_request, response) => challenge(response));
    const seen: { operation: string; mutates: boolean }[] = [];
    const client = clientWith((_challenges, { operation, mutates }) => {
      seen.push({ operation, mutates });
      return undefined;
    });
    const body = { user_id: 'u1' };
    await client
      .request({
        operation: 'catalog.createOrder',
        method: 'POST',
        path: '/v1/orders',
        body,
        retry: 'once',
      })
      .catch(() => undefined);
    await client.catalog.tools().catch(() => undefined);
    expect(seen).toEqual([
      { operation: 'catalog.createOrder', mutates: true },
      { operation: 'catalog.tools', mutates: false },
    ]);
  });

  it('a declined payment is the usual PaymentRequiredError, and nothing is resent', async () => {
    paidOnly({ websites: [] });
    const client = clientWith(() => undefined);
    const error = await client.websites.search({ query: 'nike' }).catch((caught) => caught);
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expect(error).toMatchObject({ reason: 'payment_challenge', status: 402 });
    expect(server.requests).toHaveLength(1);
  });

  it('a refused credential is a PaymentRequiredError after one resend; pay is asked once per call, retries included', async () => {
    server.handle((_request, response) => challenge(response));
    const payer = countingPayer();
    const client = clientWith(payer.pay, { maxRetries: 3 });
    const error = await client.websites.search({ query: 'nike' }).catch((caught) => caught);
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expect(payer.calls).toBe(1);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([undefined, CREDENTIAL]);
    // A second call of the client is a new call: it may pay again.
    await client.websites.search({ query: 'nike' }).catch(() => undefined);
    expect(payer.calls).toBe(2);
  });

  it('pays once across retries: a 503 after the paid resend is retried without paying again', async () => {
    let paidOnce = false;
    server.handle((request, response) => {
      if (request.headers.authorization === CREDENTIAL && !paidOnce) {
        paidOnce = true;
        return sendJson(response, 503, { detail: 'busy' });
      }
      challenge(response);
    });
    const payer = countingPayer();
    const client = clientWith(payer.pay, { maxRetries: 2 });
    const error = await client.websites.search({ query: 'nike' }).catch((caught) => caught);
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expect(payer.calls).toBe(1);
    // First try, paid resend (503), then the retry: challenged again and not paid.
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([
      undefined,
      CREDENTIAL,
      undefined,
    ]);
  });

  it('says a collection update changes data, and its paid resend carries the same body', async () => {
    paidOnly({ collection_id: 'col_1', name: 'New', clauses: [] });
    const contexts: PaymentContext[] = [];
    const client = clientWith((_c, context) => {
      contexts.push(context);
      return CREDENTIAL;
    });
    await client.collections.update('col_1', { name: 'New' });
    expect(contexts[0]).toMatchObject({
      operation: 'collections.update',
      method: 'PATCH',
      mutates: true,
    });
    expect(server.requests.map((r) => r.body)).toEqual(['{"name":"New"}', '{"name":"New"}']);
  });

  it('pays the MCP endpoint too; a key sent as a bearer token moves to x-api-key beside the credential', async () => {
    server.handle((request, response) => {
      if (request.headers.authorization !== CREDENTIAL) return challenge(response);
      response.setHeader('x-ucp-auth-tier', 'token');
      const { id } = JSON.parse(request.body) as { id: number };
      sendJson(response, 200, {
        jsonrpc: '2.0',
        id,
        result: { structuredContent: { products: [] }, content: [] },
      });
    });
    const contexts: PaymentContext[] = [];
    const client = new CatalogClient({
      apiKey: TEST_KEY,
      mcpUrl: server.origin,
      mcpAuthHeader: 'bearer',
      payment: {
        pay: (_c, context) => {
          contexts.push(context);
          return CREDENTIAL;
        },
      },
    });
    const { tier } = await client.catalog.search({ query: 'shoes' });
    expect(tier).toBe('token');
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${TEST_KEY}`);
    expect(server.requests[1]?.headers).toMatchObject({
      authorization: CREDENTIAL,
      'x-api-key': TEST_KEY,
    });
    expect(contexts[0]).toMatchObject({
      operation: 'catalog.search',
      method: 'POST',
      mutates: false,
    });
  });

  it('rejects a pay hook that returns something other than a header value, without echoing it', async () => {
    paidOnly({ websites: [] });
    const client = clientWith(() => 'Payment abc\r\nx-injected: 1');
    const error = await client.websites.search({ query: 'nike' }).catch((caught) => caught);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(String(error.message)).not.toContain('abc');
    expect(server.requests).toHaveLength(1);
  });

  it('leaves a 402 without Payment challenges (credits used up) to the usual error, without asking', async () => {
    server.handle((_request, response) =>
      sendJson(response, 402, { detail: 'Add a payment method' }),
    );
    const payer = countingPayer();
    const client = clientWith(payer.pay);
    const error = await client.websites.search({ query: 'nike' }).catch((caught) => caught);
    expect(error).toMatchObject({ reason: 'credits_exhausted' });
    expect(payer.calls).toBe(0);
  });

  it('a pay hook that throws fails the call with its error; a conversation token is never displaced', async () => {
    paidOnly({ websites: [] });
    const failing = clientWith(() => {
      throw new Error('wallet locked');
    });
    await expect(failing.websites.search({ query: 'nike' })).rejects.toThrow('wallet locked');
    const payer = countingPayer();
    const client = clientWith(payer.pay);
    const turn = client.request({
      operation: 'conversations.turn',
      method: 'POST',
      path: '/v1/conversations/c1/turns',
      body: { message: 'hi' },
      retry: 'once',
      auth: { type: 'bearer', token: 'conversation_token_123' },
    });
    await expect(turn).rejects.toBeInstanceOf(PaymentRequiredError);
    expect(payer.calls).toBe(0);
    expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer conversation_token_123');
  });
});
