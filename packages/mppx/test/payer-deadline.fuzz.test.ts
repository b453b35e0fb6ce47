import type { PaymentChallenge, PaymentContext } from '@catalogkit/core/payment';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createBudgetedPayer, PaymentBudget } from '../src/index.js';

const RUNS = Number(process.env.CATALOGKIT_FUZZ_RUNS) || 40;

const offer: PaymentChallenge = {
  id: 'ch',
  realm: 'r',
  method: 'test',
  intent: 'charge',
  request: { amount: '25', currency: 'usd' },
  amount: '25',
  currency: 'usd',
  description: undefined,
  expiresAt: undefined,
  params: {},
};

/** A step that answers after `ms` (or never, for undefined), or fails. */
type Step = { kind: 'answer'; ms: number } | { kind: 'never' } | { kind: 'fail'; ms: number };
const step = fc.oneof(
  fc.record({ kind: fc.constant('answer' as const), ms: fc.integer({ min: 0, max: 30 }) }),
  fc.record({ kind: fc.constant('never' as const) }),
  fc.record({ kind: fc.constant('fail' as const), ms: fc.integer({ min: 0, max: 30 }) }),
);

function run<T>(s: Step, value: T): Promise<T> {
  if (s.kind === 'never') return new Promise(() => undefined);
  return new Promise((resolve, reject) =>
    setTimeout(
      () => (s.kind === 'answer' ? resolve(value) : reject(new Error('hook failed'))),
      s.ms,
    ),
  );
}

describe('a budgeted payer under the call deadline (property)', () => {
  it('ends by the deadline, and only a credential handed out stays counted', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({ approve: step, credential: step, abortMs: fc.integer({ min: 1, max: 40 }) }),
          {
            minLength: 1,
            maxLength: 6,
          },
        ),
        async (calls) => {
          const budget = new PaymentBudget([{ currency: 'usd', total: '1000' }]);
          const results = await Promise.all(
            calls.map(async ({ approve, credential, abortMs }) => {
              const controller = new AbortController();
              let settled = false;
              // Whether the payer had settled by the first macrotask after the deadline fired:
              // what the deadline sets off runs in microtasks, so on time means by then, however
              // late a busy machine runs the timer itself.
              let endedInTime = Promise.resolve(true);
              const timer = setTimeout(() => {
                controller.abort(new Error('deadline'));
                endedInTime = new Promise((resolve) => setImmediate(() => resolve(settled)));
              }, abortMs);
              const context: PaymentContext = {
                operation: 'websites.search',
                method: 'GET',
                url: 'http://127.0.0.1/',
                mutates: false,
                signal: controller.signal,
              };
              const pay = createBudgetedPayer({
                budget,
                supports: () => true,
                approve: () => run(approve, true),
                createCredential: () => run(credential, 'Payment x'),
              });
              const result = await Promise.resolve(pay([offer], context)).then(
                (value: string | undefined) => {
                  settled = true;
                  return value;
                },
                () => {
                  settled = true;
                  return undefined;
                },
              );
              clearTimeout(timer);
              return { result, endedInTime: await endedInTime };
            }),
          );
          for (const { endedInTime } of results) expect(endedInTime).toBe(true);
          const handedOut = results.filter((r) => r.result !== undefined).length;
          expect(budget.spent('usd')).toBe(25n * BigInt(handedOut));
        },
      ),
      { numRuns: RUNS },
    );
  });
});
