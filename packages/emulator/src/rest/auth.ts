import type { MiddlewareHandler } from 'hono';
import type { EmulatorContext } from '../context.js';
import { USER_IDS } from '../options.js';
import { detailError } from './errors.js';

/** Variables REST handlers read after authentication. */
export interface RestVariables {
  /** The owner of the calling key. */
  userId: string;
}

export const MISSING_KEY_DETAIL = 'Missing API key: send your key in the x-api-key header.';
export const INVALID_KEY_DETAIL = 'Invalid API key: the x-api-key header does not match any key.';
export const CREDITS_EXHAUSTED_DETAIL =
  'Your free credits are used up. Add a payment method to your account to keep using the API.';

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
      // Paid per call: a good credential runs the call as the valid key's user, no quota.
      const path = c.req.routePath;
      const route = `${c.req.method} ${path.slice(Math.max(0, path.indexOf('/v1/')))}`;
      const paid = await emulator.payments.redeem(
        c.req.header('authorization'),
        emulator.now(),
        route,
      );
      if (!paid.ok) {
        const header = await emulator.payments.challengeHeader(emulator.now());
        return detailError(c, 402, paid.detail, { 'WWW-Authenticate': header });
      }
      c.set('userId', USER_IDS.valid);
      await next();
      c.res.headers.set('Payment-Receipt', paid.receipt);
      return;
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
