import { CatalogClient, PaymentRequiredError } from '@catalogkit/core';
import type { PaymentChallenge, PaymentReceipt } from '@catalogkit/core/payment';
import type { RunningEmulator } from '@catalogkit/emulator';
import { Challenge } from 'mppx';
import { describe, expect, it } from 'vitest';
import {
  formatPaymentAmount,
  type MppxPaymentOptions,
  mppxPayment,
  PaymentBudget,
} from '../src/index.js';
import { start } from './support/emulator.js';
import { testMethod } from './support/test-method.js';

const USD_25 = [{ currency: 'usd', maxPerCall: '50', total: '500' }] as const;

function client(emulator: RunningEmulator, options: Partial<MppxPaymentOptions> = {}) {
  const payment = mppxPayment({ methods: [testMethod()], budget: USD_25, ...options });
  const catalog = new CatalogClient({
    apiKey: emulator.keys.paymentRequired,
    baseUrl: emulator.baseUrl,
    mcpUrl: emulator.mcpUrl,
    maxRetries: 0,
    payment,
  });
  return { catalog, payment };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );

describe('mppxPayment against the emulator', () => {
  it('pays the test challenge of two, within budget, and hands the receipt to the application', async () => {
    const emulator = await start();
    const receipts: PaymentReceipt[] = [];
    const offered: PaymentChallenge[][] = [];
    const { catalog, payment } = client(emulator, {
      onReceipt: (receipt) => receipts.push(receipt),
      approve: (challenge) => {
        offered.push([challenge]);
        return true;
      },
    });
    const { websites } = await catalog.websites.search({ query: 'fell' });
    expect(websites.length).toBeGreaterThan(0);
    expect(offered.flat().map((c) => [c.method, formatPaymentAmount(c)])).toEqual([
      ['test', '0.25 USD'],
    ]);
    expect(emulator.payments.accepted).toHaveLength(1);
    expect(receipts).toEqual([
      expect.objectContaining({
        method: 'test',
        status: 'success',
        reference: emulator.payments.accepted[0]?.reference,
        challengeId: emulator.payments.accepted[0]?.challengeId,
      }),
    ]);
    expect(payment.budget.spent('usd')).toBe(25n);
  });

  it('a shopper who declines: PaymentRequiredError, nothing paid, budget untouched', async () => {
    const emulator = await start();
    const { catalog, payment } = client(emulator, { approve: async () => false });
    const error = await failure(catalog.websites.search({ query: 'fell' }));
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expect(error).toMatchObject({ reason: 'payment_challenge' });
    expect(emulator.payments.accepted).toEqual([]);
    expect(payment.budget.remaining('usd')).toBe(500n);
  });

  it('stops paying when the budget is used up across calls, and when a call costs more than allowed', async () => {
    const emulator = await start();
    const declines: string[] = [];
    const { catalog } = client(emulator, {
      budget: [{ currency: 'usd', total: '50' }],
      onDecline: (reason) => declines.push(reason),
    });
    await catalog.websites.search({ query: 'fell' });
    await catalog.websites.search({ query: 'fell' });
    expect(await failure(catalog.websites.search({ query: 'fell' }))).toBeInstanceOf(
      PaymentRequiredError,
    );
    expect(emulator.payments.accepted).toHaveLength(2);
    const cheap = client(emulator, {
      budget: [{ currency: 'usd', maxPerCall: '10', total: '500' }],
    });
    expect(await failure(cheap.catalog.websites.search({ query: 'fell' }))).toBeInstanceOf(
      PaymentRequiredError,
    );
    const euro = client(emulator, { budget: [{ currency: 'eur', total: '500' }] });
    expect(await failure(euro.catalog.websites.search({ query: 'fell' }))).toBeInstanceOf(
      PaymentRequiredError,
    );
    expect(emulator.payments.accepted).toHaveLength(2);
    expect(declines).toEqual(['total']);
  });

  it('never spends past the total when calls pay concurrently, also across clients sharing a budget', async () => {
    const emulator = await start();
    const budget = new PaymentBudget([{ currency: 'usd', total: '100' }]);
    const clients = [client(emulator, { budget }), client(emulator, { budget })];
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        clients[i % 2]?.catalog.websites.search({ query: 'fell' }),
      ),
    );
    const paid = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter(
      (o) => o.status === 'rejected' && o.reason instanceof PaymentRequiredError,
    );
    expect(paid).toHaveLength(4);
    expect(refused).toHaveLength(6);
    expect(emulator.payments.accepted).toHaveLength(4);
    expect(budget.remaining('usd')).toBe(0n);
  });

  it('a refused credential (tampered amount) is a PaymentRequiredError after one resend', async () => {
    const emulator = await start();
    const cheaper = testMethod((challenge) => ({
      ...challenge,
      request: { ...challenge.request, amount: '1' },
    }));
    let approvals = 0;
    const { catalog } = client(emulator, {
      methods: [cheaper],
      approve: () => {
        approvals++;
        return true;
      },
    });
    const error = await failure(catalog.websites.search({ query: 'fell' }));
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expect((error as PaymentRequiredError).detail).toMatch(/did not issue/);
    expect(approvals).toBe(1);
    expect(emulator.payments.accepted).toEqual([]);
    // The first request and one paid resend: no loop.
    expect(emulator.stats.count('GET /v1/websites/search')).toBe(2);
  });

  it('an expired challenge: not paid when it arrives expired; refused when consent outlasts it', async () => {
    const stale = await start({ now: () => new Date('2020-01-01T00:00:00Z') });
    const declines: string[] = [];
    const first = client(stale, { onDecline: (reason) => declines.push(reason) });
    expect(await failure(first.catalog.websites.search({ query: 'fell' }))).toBeInstanceOf(
      PaymentRequiredError,
    );
    expect(declines).toEqual(['expired']);

    let now = Date.now();
    const slow = await start({ now: () => new Date(now) });
    const second = client(slow, {
      approve: () => {
        now += 10 * 60_000; // the shopper took ten minutes to say yes
        return true;
      },
    });
    const error = await failure(second.catalog.websites.search({ query: 'fell' }));
    expect((error as PaymentRequiredError).detail).toMatch(/expired/);
    expect(slow.payments.accepted).toEqual([]);
  });

  it('pays catalog search on the MCP endpoint: token tier, receipt', async () => {
    const emulator = await start();
    const receipts: PaymentReceipt[] = [];
    const { catalog } = client(emulator, { onReceipt: (r) => receipts.push(r) });
    const { tier, result } = await catalog.catalog.search({ query: 'trail shoes' });
    expect(tier).toBe('token');
    expect(result.products.length).toBeGreaterThan(0);
    expect(receipts).toHaveLength(1);
    expect(emulator.payments.accepted.map((p) => p.route)).toEqual(['POST /mcp tools/call']);
  });

  it('applies a paid collection update once', async () => {
    const emulator = await start();
    const { catalog } = client(emulator);
    const before = emulator.state.collections.get('col_summer')?.clauses.length ?? 0;
    const updated = await catalog.collections.update('col_summer', {
      add_clauses: [
        { brand_ids: [], website_ids: [], category_ids: [], product_ids: ['prod_0001'] },
      ],
    });
    expect(updated.clauses).toHaveLength(before + 1);
    expect(emulator.state.collections.get('col_summer')?.clauses).toHaveLength(before + 1);
    expect(emulator.payments.accepted).toHaveLength(1);
  });

  it('issues challenges mppx itself verifies (same HMAC binding)', async () => {
    const emulator = await start({ payment: { secretKey: 'shared-secret-for-this-test' } });
    const response = await fetch(`${emulator.baseUrl}/v1/websites/search?query=fell`, {
      headers: { 'x-api-key': emulator.keys.paymentRequired },
    });
    const challenges = Challenge.fromResponseList(response);
    expect(challenges.map((c) => c.method)).toEqual(['tempo', 'test']);
    for (const challenge of challenges) {
      expect(Challenge.verify(challenge, { secretKey: 'shared-secret-for-this-test' })).toBe(true);
      expect(Challenge.verify(challenge, { secretKey: 'another-secret-entirely' })).toBe(false);
    }
  });
});
