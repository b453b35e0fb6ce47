export {
  describePaymentPrice,
  formatPaymentAmount,
  type PaymentAmount,
  paymentAmount,
} from './amount.js';
export {
  type BudgetRefusal,
  PaymentBudget,
  type PaymentLimit,
  type PaymentReservation,
} from './budget.js';
export {
  type BudgetedPayerOptions,
  createBudgetedPayer,
  type PaymentDeclineReason,
} from './budgeted-payer.js';
export {
  decodePaymentChallenge,
  decodePaymentChallenges,
  type PaymentChallenge,
  paymentChallengeProblems,
} from './challenge.js';
export { decodePaymentReceipt, type PaymentReceipt } from './receipt.js';
export type { PayFunction, PaymentContext, PaymentOptions } from './types.js';
