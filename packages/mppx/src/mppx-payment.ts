import type { PaymentChallenge, PaymentContext, PaymentOptions } from '@catalogkit/core/payment';
import { PaymentBudget, type PaymentLimit } from './budget.js';
import { type BudgetedPayerOptions, createBudgetedPayer } from './budgeted-payer.js';
import { flattenMethods, type MppxMethods, methodFor, toMppxChallenge } from './methods.js';

/** Options of {@link mppxPayment}. */
export interface MppxPaymentOptions {
  /**
   * mppx client methods, as for `Mppx.create({ methods })`: e.g. `tempo({ account })` from
   * `mppx/client`, or your own from `Method.toClient`. Challenges of other methods are
   * not paid.
   */
  methods: MppxMethods;
  /**
   * Spending limits per currency, in its smallest unit (`{ currency: 'usd', maxPerCall:
   * '50', total: '500' }` is 50 cents a call, 5 dollars in all); currencies not listed are
   * refused. Pass a `PaymentBudget` to share one budget between clients.
   */
  budget: PaymentBudget | readonly PaymentLimit[];
  /**
   * Human consent, asked for each payment once its amount is reserved: show
   * `formatPaymentAmount(challenge)` and resolve `true` to pay. Default: pay within budget.
   */
  approve?: (challenge: PaymentChallenge, context: PaymentContext) => boolean | Promise<boolean>;
  /** Passed to the method's `createCredential` as its `context` (e.g. a Tempo `account`). */
  credentialContext?: unknown;
  /** Receives the service's receipt of each accepted payment. */
  onReceipt?: PaymentOptions['onReceipt'];
  /** Told why a call was not paid (unsupported method, expired, over budget, not approved). */
  onDecline?: BudgetedPayerOptions['onDecline'];
}

/** The `payment` option for `CatalogClient`, plus the budget it spends. */
export interface MppxPayment extends PaymentOptions {
  /** What has been spent and what is left, per currency. */
  readonly budget: PaymentBudget;
}

/**
 * A ready payer for `new CatalogClient({ payment })`: pays the service's 402 `Payment`
 * challenges with mppx methods, within a per-call maximum and a total per currency, after
 * the application's `approve`. It loads nothing from mppx itself: the methods you pass do
 * the signing, so mppx stays an optional peer.
 *
 * @example
 * const payment = mppxPayment({
 *   methods: [tempo({ account: privateKeyToAccount(process.env.WALLET_KEY) })],
 *   budget: [{ currency: '0x20c0000000000000000000000000000000000000', maxPerCall: '500000', total: '5000000' }],
 *   approve: async (challenge) => confirm(`Pay ${formatPaymentAmount(challenge)}?`),
 * });
 * const client = new CatalogClient({ payment });
 */
export function mppxPayment(options: MppxPaymentOptions): MppxPayment {
  const methods = flattenMethods(options.methods);
  const budget =
    options.budget instanceof PaymentBudget ? options.budget : new PaymentBudget(options.budget);
  const pay = createBudgetedPayer({
    budget,
    supports: (challenge) => methodFor(methods, challenge) !== undefined,
    approve: options.approve,
    onDecline: options.onDecline,
    createCredential: async (challenge) => {
      const method = methodFor(methods, challenge);
      if (method === undefined) throw new Error(`no mppx method for ${challenge.method}`);
      const credential: string = await method.createCredential({
        challenge: toMppxChallenge(challenge),
        context: options.credentialContext,
      });
      // mppx serialises credentials as `Payment <base64url>`; a bare token gets the scheme.
      return /^Payment\s/i.test(credential) ? credential : `Payment ${credential}`;
    },
  });
  return { pay, onReceipt: options.onReceipt, budget };
}
