import { ConfigurationError } from '@catalogkit/core';
import type { PaymentChallenge, PaymentContext } from '@catalogkit/core/payment';
import { describe, expect, it } from 'vitest';
import { createBudgetedPayer, formatPaymentAmount, PaymentBudget } from '../src/index.js';

function challenge(
  fields: Partial<PaymentChallenge> & { amount: string; currency: string },
): PaymentChallenge {
  return {
    id: `ch_${fields.method ?? 'test'}_${fields.amount}`,
    realm: 'r',
    method: 'test',
    intent: 'charge',
    request: { amount: fields.amount, currency: fields.currency },
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

describe('formatPaymentAmount', () => {
  it('formats amounts exactly: ISO digits, the request decimals, else base units', () => {
    expect(formatPaymentAmount(challenge({ amount: '25', currency: 'usd' }))).toBe('0.25 USD');
    expect(formatPaymentAmount(challenge({ amount: '1000', currency: 'JPY' }))).toBe('1000 JPY');
    expect(
      formatPaymentAmount({
        ...challenge({ amount: '250000', currency: '0x20c0' }),
        request: { decimals: 6 },
      }),
    ).toBe('0.250000 0x20c0');
    expect(formatPaymentAmount(challenge({ amount: '7', currency: '0xabc' }))).toBe(
      '7 base units of 0xabc',
    );
    expect(
      formatPaymentAmount(challenge({ amount: '12345678901234567890123', currency: 'eur' })),
    ).toBe('123456789012345678901.23 EUR');
    expect(formatPaymentAmount(challenge({ amount: '1.5', currency: 'usd' }))).toBeUndefined();
  });
});

describe('PaymentBudget', () => {
  it('refuses other currencies, amounts over the per-call cap and past the total', () => {
    const budget = new PaymentBudget([{ currency: 'USD', maxPerCall: '50', total: 100n }]);
    expect(budget.reserve(challenge({ amount: '1', currency: 'eur' }))).toEqual({
      ok: false,
      reason: 'currency',
    });
    expect(budget.reserve(challenge({ amount: '51', currency: 'usd' }))).toEqual({
      ok: false,
      reason: 'per_call',
    });
    expect(budget.reserve(challenge({ amount: '-1', currency: 'usd' }))).toEqual({
      ok: false,
      reason: 'amount',
    });
    const first = budget.reserve(challenge({ amount: '50', currency: 'usd' }));
    expect(first.ok).toBe(true);
    expect(budget.reserve(challenge({ amount: '50', currency: 'usd' })).ok).toBe(true);
    expect(budget.reserve(challenge({ amount: '1', currency: 'usd' }))).toEqual({
      ok: false,
      reason: 'total',
    });
    if (first.ok) {
      first.reservation.release();
      first.reservation.release();
    }
    expect(budget.remaining('usd')).toBe(50n);
    expect(budget.spent('USD')).toBe(50n);
  });

  it('names the bad limit', () => {
    expect(() => new PaymentBudget([{ currency: 'usd', total: '1.5' }])).toThrow(
      ConfigurationError,
    );
    expect(() => new PaymentBudget([{ currency: 'usd', total: '10', maxPerCall: 'x' }])).toThrow(
      /\[0\]\.maxPerCall/,
    );
  });
});

describe('createBudgetedPayer', () => {
  const supportsTest = (c: PaymentChallenge) => c.method === 'test';

  it('never spends more than the total when many calls pay at once', async () => {
    let made = 0;
    const pay = createBudgetedPayer({
      budget: [{ currency: 'usd', total: '100' }],
      supports: supportsTest,
      createCredential: async (c) => {
        // The credential takes time (a wallet signs): other calls run meanwhile.
        await new Promise((resolve) => setTimeout(resolve, 5));
        made++;
        return `Payment ${c.id}`;
      },
    });
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        pay([challenge({ amount: '25', currency: 'usd' })], context),
      ),
    );
    expect(results.filter((r) => r !== undefined)).toHaveLength(4);
    expect(made).toBe(4);
  });

  it('picks the first supported, live challenge that fits, in the server order', async () => {
    const chosen: string[] = [];
    const declines: string[] = [];
    const pay = createBudgetedPayer({
      budget: [{ currency: 'usd', total: '100', maxPerCall: '30' }],
      supports: supportsTest,
      createCredential: async (c) => {
        chosen.push(c.id);
        return 'Payment x';
      },
      onDecline: (reason) => declines.push(reason),
      now: () => new Date('2026-01-01T00:00:00Z'),
    });
    const expired = challenge({
      amount: '1',
      currency: 'usd',
      id: 'old',
      expiresAt: new Date('2025-12-31T00:00:00Z'),
    });
    const tempo = challenge({ amount: '1', currency: 'usd', method: 'tempo' });
    const dear = challenge({ amount: '40', currency: 'usd', id: 'dear' });
    const fits = challenge({ amount: '20', currency: 'usd', id: 'fits' });
    expect(await pay([tempo, expired, dear, fits], context)).toBe('Payment x');
    expect(chosen).toEqual(['fits']);
    expect(await pay([tempo], context)).toBeUndefined();
    expect(await pay([expired], context)).toBeUndefined();
    expect(await pay([dear], context)).toBeUndefined();
    expect(declines).toEqual(['unsupported', 'expired', 'per_call']);
  });

  it('releases the reservation when consent is refused or the credential fails', async () => {
    const budget = new PaymentBudget([{ currency: 'usd', total: '25' }]);
    let approve = false;
    let fail = true;
    const asked: string[] = [];
    const pay = createBudgetedPayer({
      budget,
      supports: supportsTest,
      approve: (c) => {
        asked.push(formatPaymentAmount(c) ?? '');
        return approve;
      },
      createCredential: async () => {
        if (fail) throw new Error('wallet locked');
        return 'Payment ok';
      },
    });
    const offer = [challenge({ amount: '25', currency: 'usd' })];
    expect(await pay(offer, context)).toBeUndefined();
    expect(budget.remaining('usd')).toBe(25n);
    approve = true;
    await expect(pay(offer, context)).rejects.toThrow('wallet locked');
    expect(budget.remaining('usd')).toBe(25n);
    fail = false;
    expect(await pay(offer, context)).toBe('Payment ok');
    expect(budget.remaining('usd')).toBe(0n);
    expect(await pay(offer, context)).toBeUndefined();
    expect(asked).toEqual(['0.25 USD', '0.25 USD', '0.25 USD']);
  });
});
