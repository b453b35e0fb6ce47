import type { ServerResponse } from 'node:http';
import { CatalogClient, type CatalogClientOptions, TimeoutError } from '@catalogkit/core';
import type { PayFunction, PaymentChallenge, PaymentContext } from '@catalogkit/core/payment';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEST_KEY } from '../../core/test/support/fixtures.js';
import { sendJson, startTestServer, type TestServer } from '../../core/test/support/test-server.js';
import {
  createBudgetedPayer,
  formatPaymentAmount,
  PaymentBudget,
  type PaymentDeclineReason,
} from '../src/index.js';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const CREDENTIAL = 'Payment cred_abc123';
const FOREVER = new Promise<never>(() => undefined);
/** Long enough that the 402 round trip before the hook fits on a busy machine (300 ms did not). */
const DEADLINE_MS = 2_000;
/** How late past its deadline a call may end on a busy machine: the deadline, not the hook, ended it. */
const LATE_MS = 8_000;
const usd25 = `Payment id="ch_1", realm="shop", method="test", intent="charge", request="${b64({ amount: '25', currency: 'usd' })}"`;

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server.close());

/** Challenges every request without `CREDENTIAL` with `header`; with it, answers 200. */
function challengeWith(header: string) {
  server.handle((request, response: ServerResponse) => {
    if (request.headers.authorization === CREDENTIAL) {
      return sendJson(response, 200, { collection_id: 'col_1', name: 'New', clauses: [] });
    }
    response.setHeader('www-authenticate', header);
    sendJson(response, 402, { detail: 'Payment required' });
  });
}

function clientWith(pay: PayFunction, options: Partial<CatalogClientOptions> = {}) {
  return new CatalogClient({
    apiKey: TEST_KEY,
    baseUrl: server.origin,
    payment: { pay },
    maxRetries: 0,
    ...options,
  });
}

/** How long `promise` took to settle, and what it settled with. */
async function timed<T>(promise: Promise<T>): Promise<{ ms: number; error: unknown }> {
  const start = performance.now();
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  return { ms: performance.now() - start, error };
}

describe('a budgeted payer runs under the call deadline and signal', () => {
  it.each([
    ['approve', { approve: () => FOREVER }],
    ['createCredential', { createCredential: () => FOREVER }],
  ] as const)(
    'a budgeted payer whose %s never answers releases the reservation at the deadline',
    async (_name, hang) => {
      challengeWith(usd25);
      const budget = new PaymentBudget([{ currency: 'usd', total: '25' }]);
      const pay = createBudgetedPayer({
        budget,
        supports: () => true,
        createCredential: async () => CREDENTIAL,
        ...hang,
      });
      const client = clientWith(pay, { timeoutMs: DEADLINE_MS });
      const { ms, error } = await timed(client.collections.update('col_1', { name: 'New' }));
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error).toMatchObject({ outcomeUnknown: false });
      expect(ms).toBeLessThan(DEADLINE_MS + LATE_MS);
      expect(budget.remaining('usd')).toBe(25n);
      expect(budget.spent('usd')).toBe(0n);
      expect(server.requests).toHaveLength(1);
      // The whole budget is there for the next call, which pays.
      const paid = clientWith(
        createBudgetedPayer({
          budget,
          supports: () => true,
          createCredential: async () => CREDENTIAL,
        }),
      );
      await expect(paid.collections.update('col_1', { name: 'New' })).resolves.toMatchObject({
        name: 'New',
      });
      expect(budget.remaining('usd')).toBe(0n);
    },
  );

  it('a credential made just after the deadline is not sent and not counted', async () => {
    challengeWith(usd25);
    const budget = new PaymentBudget([{ currency: 'usd', total: '25' }]);
    const pay = createBudgetedPayer({
      budget,
      supports: () => true,
      // Answers only once the call's signal has aborted.
      createCredential: (_challenge, context) =>
        new Promise((resolve) =>
          context.signal.addEventListener('abort', () => resolve(CREDENTIAL)),
        ),
    });
    const { error } = await timed(
      clientWith(pay, { timeoutMs: DEADLINE_MS }).websites.search({ query: 'x' }),
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect(budget.remaining('usd')).toBe(25n);
    expect(server.requests).toHaveLength(1);
  });
});

function challenge(
  fields: Partial<PaymentChallenge> & { request: Record<string, unknown> },
): PaymentChallenge {
  const { request } = fields;
  return {
    id: 'ch_1',
    realm: 'r',
    method: 'test',
    intent: 'charge',
    amount: typeof request.amount === 'string' ? request.amount : undefined,
    currency: typeof request.currency === 'string' ? request.currency : undefined,
    description: undefined,
    expiresAt: undefined,
    params: {},
    ...fields,
  };
}

const context: PaymentContext = {
  operation: 'websites.search',
  method: 'GET',
  url: 'http://127.0.0.1/v1/websites/search',
  mutates: false,
  signal: new AbortController().signal,
};

/** A budgeted payer over `budget` that records what it was asked and why it declined. */
function recordingPayer(budget: PaymentBudget) {
  const shown: string[] = [];
  const declines: PaymentDeclineReason[] = [];
  const pay = createBudgetedPayer({
    budget,
    supports: () => true,
    approve: (c) => {
      shown.push(formatPaymentAmount(c) ?? '(no price)');
      return true;
    },
    createCredential: async () => CREDENTIAL,
    onDecline: (reason) => declines.push(reason),
  });
  return { pay, shown, declines };
}

describe('what people are shown is what the budget reserves, for any decimals', () => {
  it('100000 with decimals 6 in usd is 0.100000 USD shown and 10 cents reserved', async () => {
    const budget = new PaymentBudget([{ currency: 'usd', total: '1000' }]);
    const { pay, shown } = recordingPayer(budget);
    const offer = challenge({ request: { amount: '100000', currency: 'usd', decimals: 6 } });
    expect(await pay([offer], context)).toBe(CREDENTIAL);
    expect(shown).toEqual(['0.100000 USD']);
    expect(budget.spent('usd')).toBe(10n);
  });

  it('a price finer than the budget unit is refused; a budget in that unit pays it exactly', async () => {
    const offer = challenge({ request: { amount: '100001', currency: 'usd', decimals: 6 } });
    const cents = recordingPayer(new PaymentBudget([{ currency: 'usd', total: '1000' }]));
    expect(await cents.pay([offer], context)).toBeUndefined();
    expect(cents.declines).toEqual(['amount']);
    const micro = new PaymentBudget([{ currency: 'usd', total: '100001', decimals: 6 }]);
    const fine = recordingPayer(micro);
    expect(await fine.pay([offer], context)).toBe(CREDENTIAL);
    expect(fine.shown).toEqual(['0.100001 USD']);
    expect(micro.remaining('usd')).toBe(0n);
  });

  it('fewer decimals than the budget unit scale up: 5 with decimals 0 in usd is 500 cents', async () => {
    const budget = new PaymentBudget([{ currency: 'usd', total: '500' }]);
    const { pay, shown } = recordingPayer(budget);
    expect(
      await pay([challenge({ request: { amount: '5', currency: 'USD', decimals: 0 } })], context),
    ).toBe(CREDENTIAL);
    expect(shown).toEqual(['5 USD']);
    expect(budget.remaining('usd')).toBe(0n);
  });

  it('invalid decimals are neither shown as a price nor paid', async () => {
    for (const decimals of [-1, 1.5, 37, '6', null, 1e21]) {
      const offer = challenge({ request: { amount: '100', currency: 'usd', decimals } });
      expect(formatPaymentAmount(offer)).toBeUndefined();
      const { pay, declines } = recordingPayer(
        new PaymentBudget([{ currency: 'usd', total: '1000000' }]),
      );
      expect(await pay([offer], context)).toBeUndefined();
      expect(declines).toEqual(['amount']);
    }
  });
});

describe('currencies are compared as ASCII codes', () => {
  it('SE\\u212A (Kelvin sign) does not match a sek budget, and is not shown as a price', async () => {
    const budget = new PaymentBudget([{ currency: 'sek', total: '1000' }]);
    expect(budget.reserve(challenge({ request: { amount: '10', currency: 'SE\u212A' } }))).toEqual({
      ok: false,
      reason: 'currency',
    });
    expect(budget.reserve(challenge({ request: { amount: '10', currency: 'SEK' } })).ok).toBe(true);
    const kelvin = challenge({ request: { amount: '10', currency: 'SE\u212A' } });
    expect(formatPaymentAmount(kelvin)).toBeUndefined();
    const { pay, declines } = recordingPayer(budget);
    expect(await pay([kelvin], context)).toBeUndefined();
    expect(declines).toEqual(['currency']);
  });

  it('a limit with a non-ASCII or repeated currency is a ConfigurationError naming it', () => {
    expect(() => new PaymentBudget([{ currency: 'SE\u212A', total: '1' }])).toThrow(
      /payment limit \[0\]\.currency must be printable ASCII/,
    );
    expect(
      () =>
        new PaymentBudget([
          { currency: 'usd', total: '1' },
          { currency: 'USD', total: '2' },
        ]),
    ).toThrow(/\[1\]\.currency is listed twice/);
    expect(() => new PaymentBudget([{ currency: 'usd', total: '1', decimals: 2.5 }])).toThrow(
      /\[0\]\.decimals must be an integer/,
    );
  });
});
