/*
 * `@catalogkit/core/payment`: the client's `payment` option for 402 `Payment` challenges and
 * its hook types. A budget and a payer that keeps within it are `@catalogkit/mppx`'s.
 */
export type { PaymentChallenge } from './challenge.js';
export type { PayFunction, PaymentContext, PaymentOptions, PaymentReceipt } from './types.js';
