export { PAYMENT_REALM } from './challenges.js';
export {
  type EmulatorPaymentOptions,
  PAYMENT_CHALLENGE_DETAIL,
  PaymentDesk,
  type PaymentRecord,
  type Redemption,
  TEST_PAYMENT_METHOD,
} from './desk.js';
