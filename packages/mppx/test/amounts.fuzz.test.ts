import type { PaymentChallenge, PaymentContext } from '@catalogkit/core/payment';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createBudgetedPayer, formatPaymentAmount, PaymentBudget } from '../src/index.js';

const RUNS = Number(process.env.CATALOGKIT_FUZZ_RUNS) || 300;

const context: PaymentContext = {
  operation: 'websites.search',
  method: 'GET',
  url: 'http://127.0.0.1/v1/websites/search',
  mutates: false,
  signal: new AbortController().signal,
};

function challenge(request: Record<string, unknown>): PaymentChallenge {
  return {
    id: 'ch',
    realm: 'r',
    method: 'test',
    intent: 'charge',
    request,
    amount: String(request.amount),
    currency: String(request.currency),
    description: undefined,
    expiresAt: undefined,
    params: {},
  };
}

/** A shown price (`0.100000 USD`, `5 JPY`) as an exact fraction: [numerator, decimals]. */
function shownValue(text: string): [bigint, number] {
  const [number = ''] = text.split(' ');
  const [whole = '', fraction = ''] = number.split('.');
  return [BigInt(whole + fraction), fraction.length];
}

const ISO = { usd: 2, eur: 2, jpy: 0, kwd: 3 } as const;

describe('shown price and reserved amount agree (property)', () => {
  it('for any amount, challenge decimals and budget unit', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.option(fc.integer({ min: 0, max: 36 }), { nil: undefined }),
        fc.constantFrom(...(Object.keys(ISO) as (keyof typeof ISO)[])),
        fc.option(fc.integer({ min: 0, max: 36 }), { nil: undefined }),
        async (units, decimals, currency, limitDecimals) => {
          const offer = challenge({ amount: units.toString(), currency, decimals });
          const budget = new PaymentBudget([
            { currency: currency.toUpperCase(), total: 10n ** 80n, decimals: limitDecimals },
          ]);
          let shown: string | undefined;
          const pay = createBudgetedPayer({
            budget,
            supports: () => true,
            approve: (c) => {
              shown = formatPaymentAmount(c);
              return true;
            },
            createCredential: async () => 'Payment x',
          });
          const paid = await pay([offer], context);
          const unit = limitDecimals ?? ISO[currency];
          const stated = decimals ?? ISO[currency];
          if (paid === undefined) {
            // Refused only when the price is a fraction of the budget's unit.
            expect(stated).toBeGreaterThan(unit);
            expect(units % 10n ** BigInt(stated - unit)).not.toBe(0n);
            expect(budget.spent(currency)).toBe(0n);
            return;
          }
          const [numerator, digits] = shownValue(shown ?? '');
          const reserved = budget.spent(currency);
          // numerator / 10^digits === reserved / 10^unit, compared without division.
          expect(numerator * 10n ** BigInt(unit)).toBe(reserved * 10n ** BigInt(digits));
          expect(shown).toMatch(new RegExp(` ${currency.toUpperCase()}$`));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('a currency only matches a limit whose ASCII code is the same, letter case aside', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 5, unit: 'binary' }), (code) => {
        const budget = new PaymentBudget([{ currency: 'sek', total: '100' }]);
        const ok = budget.reserve(challenge({ amount: '1', currency: code })).ok;
        expect(ok).toBe(/^sek$/i.test(code) && /^[\x21-\x7e]+$/.test(code));
      }),
      { numRuns: RUNS },
    );
  });
});
