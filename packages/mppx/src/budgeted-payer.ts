import type { CatalogLogger } from '@catalogkit/core';
import type { PayFunction, PaymentChallenge, PaymentContext } from '@catalogkit/core/payment';
import { type BudgetRefusal, PaymentBudget, type PaymentLimit } from './budget.js';

/** Why a payer declined: the budget's reason, or one of its own. */
export type PaymentDeclineReason = BudgetRefusal | 'unsupported' | 'expired' | 'not_approved';

/** Options of {@link createBudgetedPayer}. */
export interface BudgetedPayerOptions {
  /** Spending limits, or a budget shared with other payers. */
  budget: PaymentBudget | readonly PaymentLimit[];
  /** Whether this payer can pay `challenge` (its method and intent). */
  supports(challenge: PaymentChallenge): boolean;
  /**
   * Makes the `Authorization` value (`Payment <credential>`) for the chosen challenge. Bounded
   * by `context.signal`: one not made in time is never sent, and its reservation is released.
   */
  createCredential(challenge: PaymentChallenge, context: PaymentContext): Promise<string>;
  /**
   * Human consent for the chosen challenge once its amount is reserved (show
   * `formatPaymentAmount(challenge)`); false declines. Bounded by `context.signal` too.
   */
  approve?(challenge: PaymentChallenge, context: PaymentContext): boolean | Promise<boolean>;
  /** Told why a call was not paid; a throw or rejection is logged and changes nothing. */
  onDecline?(
    reason: PaymentDeclineReason,
    challenges: readonly PaymentChallenge[],
    context: PaymentContext,
  ): void;
  /** Clock for `expires` checks. Default: the system clock. */
  now?: () => Date;
  /** Where a failing `onDecline` is reported (its message only). */
  logger?: CatalogLogger;
}

/**
 * A pay hook that keeps to a budget and asks for consent: the first challenge (in the
 * server's order) it supports, not expired, that fits the budget is reserved, then
 * approved, then given a credential, `expires` checked again after each wait. A decline, a
 * failure, the call's deadline or abort releases the reservation; a credential handed out
 * stays counted, even if the service refuses it (the funds may have moved).
 */
export function createBudgetedPayer(options: BudgetedPayerOptions): PayFunction {
  const budget =
    options.budget instanceof PaymentBudget ? options.budget : new PaymentBudget(options.budget);
  const now = options.now ?? (() => new Date());
  const live = (challenge: PaymentChallenge) =>
    challenge.expiresAt === undefined || challenge.expiresAt.getTime() > now().getTime();
  return async (challenges, context) => {
    const { signal, operation } = context;
    const decline = (reason: PaymentDeclineReason) => {
      const failed = (error: unknown) =>
        options.logger?.error?.(`${operation}: payment onDecline threw`, {
          operation,
          error: error instanceof Error ? error.message : String(error),
        });
      notify(() => options.onDecline?.(reason, challenges, context), failed);
      return undefined;
    };
    const supported = challenges.filter((challenge) => options.supports(challenge));
    if (supported.length === 0) return decline('unsupported');
    let refusal: PaymentDeclineReason = 'expired';
    for (const challenge of supported.filter(live)) {
      const reserved = budget.reserve(challenge);
      if (!reserved.ok) {
        refusal = reserved.reason;
        continue;
      }
      try {
        const approval = Promise.resolve(options.approve?.(challenge, context) ?? true);
        if (!(await abortable(approval, signal))) {
          reserved.reservation.release();
          return decline('not_approved');
        }
        signal.throwIfAborted();
        if (live(challenge)) {
          const credential = await abortable(options.createCredential(challenge, context), signal);
          // Made just as the call ended: it is never sent, so it must not stay counted.
          signal.throwIfAborted();
          if (live(challenge)) return credential;
        }
        // Expired during a slow approval: the service would refuse it, so it is not sent.
        reserved.reservation.release();
        return decline('expired');
      } catch (error) {
        reserved.reservation.release();
        throw error;
      }
    }
    return decline(refusal);
  };
}

/** Stops waiting for `promise` (which runs on) when `signal` aborts, with its reason. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Runs `onDecline`: its throw or rejected promise goes to `failed`, never ends the call. */
function notify(hook: () => unknown, failed: (error: unknown) => void): void {
  try {
    Promise.resolve(hook()).catch(failed);
  } catch (error) {
    failed(error);
  }
}
