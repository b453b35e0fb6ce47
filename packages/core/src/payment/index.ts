// `@catalogkit/core/payment`: the `payment` option's types; budgets are `@catalogkit/mppx`'s.
export type { PaymentChallenge } from './challenge.js';
export type { PayFunction, PaymentContext, PaymentOptions, PaymentReceipt } from './types.js';
