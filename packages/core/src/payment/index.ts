/*
 * `@catalogkit/core/payment`: machine payments of 402 `Payment` challenges. The client's
 * `payment` option and its hook types, a per-currency budget, a payer that keeps within it
 * (what `@catalogkit/mppx` builds on), and what a challenge costs, for people.
 */
export { formatPaymentAmount } from './amount.js';
export { type BudgetRefusal, PaymentBudget, type PaymentLimit } from './budget.js';
export {
  type BudgetedPayerOptions,
  createBudgetedPayer,
  type PaymentDeclineReason,
} from './budgeted-payer.js';
export type { PaymentChallenge } from './challenge.js';
export type { PayFunction, PaymentContext, PaymentOptions, PaymentReceipt } from './types.js';
