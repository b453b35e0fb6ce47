export type { MppxMethods } from './methods.js';
export { type MppxPayment, type MppxPaymentOptions, mppxPayment } from './mppx-payment.js';
