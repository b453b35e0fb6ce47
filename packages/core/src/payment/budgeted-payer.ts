import { type BudgetRefusal, PaymentBudget, type PaymentLimit } from './budget.js';
import type { PaymentChallenge } from './challenge.js';
import type { PayFunction, PaymentContext } from './types.js';

/** Why a payer declined: the budget's reason, or one of its own. */
export type PaymentDeclineReason = BudgetRefusal | 'unsupported' | 'expired' | 'not_approved';

/** Options of {@link createBudgetedPayer}. */
export interface BudgetedPayerOptions {
  /** Spending limits, or a budget shared with other payers. */
  budget: PaymentBudget | readonly PaymentLimit[];
  /** Whether this payer can pay `challenge` (its method and intent). */
  supports(challenge: PaymentChallenge): boolean;
  /** Makes the `Authorization` value (`Payment <credential>`) for the chosen challenge. */
  createCredential(challenge: PaymentChallenge, context: PaymentContext): Promise<string>;
  /**
   * Human consent: asked for the chosen challenge once its amount is reserved; return
   * false to decline. Show `formatPaymentAmount(challenge)` to the shopper.
   */
  approve?(challenge: PaymentChallenge, context: PaymentContext): boolean | Promise<boolean>;
  /** Told why a call was not paid (the call then fails with PaymentRequiredError). */
  onDecline?(
    reason: PaymentDeclineReason,
    challenges: readonly PaymentChallenge[],
    context: PaymentContext,
  ): void;
  /** Clock for `expires` checks. Default: the system clock. */
  now?: () => Date;
}

function isLive(challenge: PaymentChallenge, now: Date): boolean {
  return challenge.expiresAt === undefined || challenge.expiresAt.getTime() > now.getTime();
}

/**
 * A pay hook that keeps to a budget and asks for consent: it takes the first challenge it
 * supports that is not expired and fits the budget (in the server's order), reserves its
 * amount, asks `approve`, then makes the credential. A declined approval or a failed
 * credential releases the reservation; a credential handed out stays counted, also if the
 * service refuses it, because the payer cannot know whether the funds moved.
 */
export function createBudgetedPayer(options: BudgetedPayerOptions): PayFunction {
  const budget =
    options.budget instanceof PaymentBudget ? options.budget : new PaymentBudget(options.budget);
  const now = options.now ?? (() => new Date());
  return async (challenges, context) => {
    const decline = (reason: PaymentDeclineReason) => {
      options.onDecline?.(reason, challenges, context);
      return undefined;
    };
    const supported = challenges.filter((challenge) => options.supports(challenge));
    if (supported.length === 0) return decline('unsupported');
    const live = supported.filter((challenge) => isLive(challenge, now()));
    if (live.length === 0) return decline('expired');
    let refusal: BudgetRefusal = 'currency';
    for (const challenge of live) {
      const reserved = budget.reserve(challenge.currency, challenge.amount);
      if (!reserved.ok) {
        refusal = reserved.reason;
        continue;
      }
      try {
        const approved = (await options.approve?.(challenge, context)) ?? true;
        if (!approved || context.signal.aborted) {
          reserved.reservation.release();
          return decline('not_approved');
        }
        return await options.createCredential(challenge, context);
      } catch (error) {
        reserved.reservation.release();
        throw error;
      }
    }
    return decline(refusal);
  };
}
