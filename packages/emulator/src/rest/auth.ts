import type { MiddlewareHandler } from 'hono';
import type { EmulatorContext } from '../context.js';
import { detailError } from './errors.js';
import { paymentChallengeHeader } from './payment-challenge.js';

/** Variables REST handlers read after authentication. */
export interface RestVariables {
  /** The owner of the calling key. */
  userId: string;
}

export const MISSING_KEY_DETAIL = 'Missing API key: send your key in the x-api-key header.';
export const INVALID_KEY_DETAIL = 'Invalid API key: the x-api-key header does not match any key.';
export const CREDITS_EXHAUSTED_DETAIL =
  'Your free credits are used up. Add a payment method to your account to keep using the API.';
export const PAYMENT_CHALLENGE_DETAIL =
  'Payment required: satisfy the challenge in the WWW-Authenticate response header and retry.';

/**
 * The REST key check (401 missing / invalid, 402 credits / payment challenge) followed
 * by the per-key daily rate limit, in the order the real service applies them: a caller
 * without a usable key is never counted.
 */
export function restAuth(
  emulator: EmulatorContext,
): MiddlewareHandler<{ Variables: RestVariables }> {
  return async (c, next) => {
    const key = c.req.header('x-api-key');
    if (!key) return detailError(c, 401, MISSING_KEY_DETAIL);
    const { keys } = emulator;
    if (key === keys.creditsExhausted) return detailError(c, 402, CREDITS_EXHAUSTED_DETAIL);
    if (key === keys.paymentRequired) {
      const header = paymentChallengeHeader(emulator.state.nextId('ch_'), emulator.now());
      return detailError(c, 402, PAYMENT_CHALLENGE_DETAIL, { 'WWW-Authenticate': header });
    }
    const userId = emulator.userIdForKey(key);
    if (!userId) return detailError(c, 401, INVALID_KEY_DETAIL);
    const decision = emulator.rateLimiter.take(`rest:${userId}`, emulator.rateLimits.rest);
    if (!decision.allowed) {
      return detailError(
        c,
        429,
        `Rate limit exceeded: ${decision.limit} requests per UTC day for this key. It resets at ${decision.resetsAt.toISOString()}.`,
        { 'Retry-After': String(decision.retryAfterSeconds) },
      );
    }
    c.set('userId', userId);
    await next();
  };
}
