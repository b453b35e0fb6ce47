export {
  type BudgetRefusal,
  formatPaymentAmount,
  PaymentBudget,
  type PaymentLimit,
} from './budget.js';
export {
  type BudgetedPayerOptions,
  createBudgetedPayer,
  type PaymentDeclineReason,
} from './budgeted-payer.js';
export type { MppxMethods } from './methods.js';
export { type MppxPayment, type MppxPaymentOptions, mppxPayment } from './mppx-payment.js';
