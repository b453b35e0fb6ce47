// Red-team findings on the budgeted payer (issue 23, second round; it lived in core then):
// each test here failed before its fix.
import { CatalogClient, PaymentRequiredError } from '@catalogkit/core';
import type { PaymentChallenge } from '@catalogkit/core/payment';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendJson, startTestServer, type TestServer } from '../../core/test/support/test-server.js';
import {
  createBudgetedPayer,
  formatPaymentAmount,
  PaymentBudget,
  type PaymentDeclineReason,
} from '../src/index.js';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const KEY = 'ck_live_0123456789abcdef0123456789abcdef';
const CREDENTIAL = 'Payment cred_abc123';
const TOKEN = '0x20c0000000000000000000000000000000000001';

function challengeHeader(request: Record<string, unknown>, params = ''): string {
  return `Payment id="ch_1", realm="shop", method="test", intent="charge", request="${b64(request)}"${params}`;
}

/** A decoded challenge of `request`, as the client hands it to the pay hook. */
function tokenChallenge(request: { amount: string; currency: string; decimals?: number }) {
  const { amount, currency } = request;
  const base = { id: 'ch_1', realm: 'shop', method: 'tempo', intent: 'charge', params: {} };
  const challenge: PaymentChallenge = {
    ...base,
    request,
    amount,
    currency,
    description: undefined,
    expiresAt: undefined,
  };
  return challenge;
}

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server.close());

/** Challenges a request without a `Payment` credential; answers a paid one with `paid`. */
function challengeThen(header: string, paid: Parameters<TestServer['handle']>[0]) {
  server.handle((request, response) => {
    if (request.headers.authorization?.startsWith('Payment ')) return paid(request, response);
    response.setHeader('www-authenticate', header);
    sendJson(response, 402, { detail: 'Payment required' });
  });
}

const search = (client: CatalogClient) => client.websites.search({ query: 'x' });

describe('F4: user hooks that reject asynchronously', () => {
  it("a budgeted payer's async onDecline that rejects is logged; the call fails as a 402", async () => {
    challengeThen(challengeHeader({ amount: '25', currency: 'usd' }), () => undefined);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const logged: string[] = [];
    let error: unknown;
    try {
      const pay = createBudgetedPayer({
        budget: [{ currency: 'eur', total: '100' }],
        supports: () => true,
        createCredential: async () => CREDENTIAL,
        logger: { error: (message) => logged.push(message) },
        onDecline: async () => {
          throw new Error('ui gone');
        },
      });
      const client = new CatalogClient({
        apiKey: KEY,
        baseUrl: server.origin,
        maxRetries: 0,
        payment: { pay },
      });
      error = await search(client).catch((caught: unknown) => caught);
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expect(unhandled).toEqual([]);
    expect(logged).toEqual(['websites.search: payment onDecline threw']);
  });
});

describe('F5: a token limit without decimals', () => {
  const amount = '1000000000000000000';

  it.each([36, 18, 0])(
    'refuses a challenge stating decimals %i (shown and reserved would differ)',
    async (decimals) => {
      const budget = new PaymentBudget([{ currency: TOKEN, total: '5000000000000000000' }]);
      expect(budget.reserve(tokenChallenge({ amount, currency: TOKEN, decimals }))).toEqual({
        ok: false,
        reason: 'decimals',
      });
      challengeThen(
        `Payment id="x", realm="r", method="tempo", intent="charge", request="${b64({ amount, currency: TOKEN, decimals })}"`,
        (_request, response) => sendJson(response, 200, { websites: [] }),
      );
      const declined: PaymentDeclineReason[] = [];
      const pay = createBudgetedPayer({
        budget,
        supports: () => true,
        createCredential: async () => CREDENTIAL,
        onDecline: (reason) => declined.push(reason),
      });
      const client = new CatalogClient({
        apiKey: KEY,
        baseUrl: server.origin,
        maxRetries: 0,
        payment: { pay },
      });
      await expect(search(client)).rejects.toBeInstanceOf(PaymentRequiredError);
      expect(declined).toEqual(['decimals']);
      expect(budget.spent(TOKEN)).toBe(0n);
    },
  );

  it('still pays a challenge without decimals in base units, as shown', () => {
    const budget = new PaymentBudget([{ currency: TOKEN, total: '5000000000000000000' }]);
    const challenge = tokenChallenge({ amount, currency: TOKEN });
    expect(formatPaymentAmount(challenge)).toBe(`${amount} base units of ${TOKEN}`);
    expect(budget.reserve(challenge).ok).toBe(true);
    expect(budget.spent(TOKEN)).toBe(BigInt(amount));
  });
});

describe('F6: a challenge that expires while the shopper approves', () => {
  it('is not paid, and its reservation is released', async () => {
    const expires = new Date(Date.now() + 60_000);
    let clock = Date.now();
    let made = 0;
    challengeThen(
      challengeHeader({ amount: '25', currency: 'usd' }, `, expires="${expires.toISOString()}"`),
      (_request, response) => sendJson(response, 200, { websites: [] }),
    );
    const declined: PaymentDeclineReason[] = [];
    const budget = new PaymentBudget([{ currency: 'usd', total: '1000' }]);
    const pay = createBudgetedPayer({
      budget,
      supports: () => true,
      now: () => new Date(clock),
      approve: () => {
        clock = expires.getTime() + 1; // the shopper took longer than the challenge lives
        return true;
      },
      createCredential: async () => {
        made++;
        return CREDENTIAL;
      },
      onDecline: (reason) => declined.push(reason),
    });
    const client = new CatalogClient({
      apiKey: KEY,
      baseUrl: server.origin,
      maxRetries: 0,
      payment: { pay },
    });
    await expect(search(client)).rejects.toBeInstanceOf(PaymentRequiredError);
    expect({ made, declined, spent: budget.spent('usd'), sent: server.requests.length }).toEqual({
      made: 0,
      declined: ['expired'],
      spent: 0n,
      sent: 1,
    });
  });

  it('is not sent when it expires while the credential is made', async () => {
    const expires = new Date(Date.now() + 60_000);
    let clock = Date.now();
    challengeThen(
      challengeHeader({ amount: '25', currency: 'usd' }, `, expires="${expires.toISOString()}"`),
      (_request, response) => sendJson(response, 200, { websites: [] }),
    );
    const budget = new PaymentBudget([{ currency: 'usd', total: '1000' }]);
    const pay = createBudgetedPayer({
      budget,
      supports: () => true,
      now: () => new Date(clock),
      createCredential: async () => {
        clock = expires.getTime() + 1;
        return CREDENTIAL;
      },
    });
    const client = new CatalogClient({
      apiKey: KEY,
      baseUrl: server.origin,
      maxRetries: 0,
      payment: { pay },
    });
    await expect(search(client)).rejects.toBeInstanceOf(PaymentRequiredError);
    expect({ spent: budget.spent('usd'), sent: server.requests.length }).toEqual({
      spent: 0n,
      sent: 1,
    });
  });
});
