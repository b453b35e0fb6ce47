import { abortable } from '../async.js';
import type { CatalogLogger } from '../logger.js';
import { paymentAmount } from './amount.js';
import { type BudgetRefusal, PaymentBudget, type PaymentLimit } from './budget.js';
import type { PaymentChallenge } from './challenge.js';
import { isThenable } from './paid-request.js';
import type { PayFunction, PaymentContext } from './types.js';

/** Why a payer declined: the budget's reason, or one of its own. */
export type PaymentDeclineReason = BudgetRefusal | 'unsupported' | 'expired' | 'not_approved';

/** Options of {@link createBudgetedPayer}. */
export interface BudgetedPayerOptions {
  /** Spending limits, or a budget shared with other payers. */
  budget: PaymentBudget | readonly PaymentLimit[];
  /** Whether this payer can pay `challenge` (its method and intent). */
  supports(challenge: PaymentChallenge): boolean;
  /**
   * Makes the `Authorization` value (`Payment <credential>`) for the chosen challenge.
   * Bounded by `context.signal` like `approve`: a credential not made in time is never
   * sent, and its reservation is released.
   */
  createCredential(challenge: PaymentChallenge, context: PaymentContext): Promise<string>;
  /**
   * Human consent: asked for the chosen challenge once its amount is reserved; return
   * false to decline. Show `formatPaymentAmount(challenge)` to the shopper. It runs under
   * the call's deadline: when `context.signal` aborts (timeout, caller), the reservation is
   * released and the call ends, whether or not this ever answers.
   */
  approve?(challenge: PaymentChallenge, context: PaymentContext): boolean | Promise<boolean>;
  /**
   * Told why a call was not paid (the call then fails with PaymentRequiredError). A throw
   * or a rejected promise is reported to `logger` and changes nothing.
   */
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

function isLive(challenge: PaymentChallenge, now: Date): boolean {
  return challenge.expiresAt === undefined || challenge.expiresAt.getTime() > now.getTime();
}

/**
 * Consent, then the credential, both bounded by the call's signal. `'expired'` when the
 * challenge expired meanwhile (a slow approval): the service would refuse it, so it is
 * not sent and its reservation is released.
 */
async function consentAndCredential(
  options: BudgetedPayerOptions,
  challenge: PaymentChallenge,
  context: PaymentContext,
  now: () => Date,
): Promise<{ credential: string } | { declined: 'not_approved' | 'expired' }> {
  const { signal } = context;
  const approval = new Promise<boolean>((resolve) =>
    resolve(options.approve?.(challenge, context) ?? true),
  );
  if (!(await abortable(approval, signal))) return { declined: 'not_approved' };
  signal.throwIfAborted();
  if (!isLive(challenge, now())) return { declined: 'expired' };
  const credential = await abortable(options.createCredential(challenge, context), signal);
  // Made just as the call ended: it will not be sent, so it must not stay counted.
  signal.throwIfAborted();
  if (!isLive(challenge, now())) return { declined: 'expired' };
  return { credential };
}

/** Calls `onDecline`; its failure (thrown or rejected) is logged and never ends the call. */
function tellDecline(
  options: BudgetedPayerOptions,
  reason: PaymentDeclineReason,
  challenges: readonly PaymentChallenge[],
  context: PaymentContext,
): void {
  const failed = (error: unknown) =>
    options.logger?.error?.(`${context.operation}: payment onDecline threw`, {
      operation: context.operation,
      error: error instanceof Error ? error.message : String(error),
    });
  try {
    const result: unknown = options.onDecline?.(reason, challenges, context);
    if (isThenable(result)) Promise.resolve(result).catch(failed);
  } catch (error) {
    failed(error);
  }
}

/**
 * A pay hook that keeps to a budget and asks for consent: it takes the first challenge it
 * supports that is not expired and fits the budget (in the server's order), reserves its
 * amount, asks `approve`, then makes the credential. A declined approval, a failed
 * credential, or the call's deadline or abort while either is pending releases the
 * reservation; a credential handed out stays counted, also if the service refuses it,
 * because the payer cannot know whether the funds moved.
 */
export function createBudgetedPayer(options: BudgetedPayerOptions): PayFunction {
  const budget =
    options.budget instanceof PaymentBudget ? options.budget : new PaymentBudget(options.budget);
  const now = options.now ?? (() => new Date());
  return async (challenges, context) => {
    const decline = (reason: PaymentDeclineReason) => {
      tellDecline(options, reason, challenges, context);
      return undefined;
    };
    const supported = challenges.filter((challenge) => options.supports(challenge));
    if (supported.length === 0) return decline('unsupported');
    const live = supported.filter((challenge) => isLive(challenge, now()));
    if (live.length === 0) return decline('expired');
    let refusal: BudgetRefusal = 'currency';
    for (const challenge of live) {
      const amount = paymentAmount(challenge);
      const reserved =
        amount === undefined
          ? ({ ok: false, reason: 'amount' } as const)
          : budget.reserve(challenge.currency, amount.units, amount.decimals);
      if (!reserved.ok) {
        refusal = reserved.reason;
        continue;
      }
      try {
        const outcome = await consentAndCredential(options, challenge, context, now);
        if ('credential' in outcome) return outcome.credential;
        reserved.reservation.release();
        return decline(outcome.declined);
      } catch (error) {
        reserved.reservation.release();
        throw error;
      }
    }
    return decline(refusal);
  };
}
