import type { Clock } from './options.js';

/** The outcome of counting one request against a daily limit. */
export type RateDecision =
  | { allowed: true }
  | { allowed: false; retryAfterSeconds: number; resetsAt: Date; limit: number };

const DAY_MS = 86_400_000;

/**
 * Fixed-window counters per caller per UTC day: the contract says limits reset on UTC
 * days, so the window is the calendar day of the injected clock, not a sliding 24 h.
 */
export class DailyRateLimiter {
  private readonly used = new Map<string, number>();
  private currentDay = Number.NaN;

  constructor(private readonly now: Clock) {}

  /** Counts one request of `caller` against `limit` and says whether it may proceed. */
  take(caller: string, limit: number): RateDecision {
    const now = this.now().getTime();
    const day = Math.floor(now / DAY_MS);
    if (day !== this.currentDay) {
      // A new UTC day: yesterday's counters can never be read again.
      this.used.clear();
      this.currentDay = day;
    }
    const key = `${day}:${caller}`;
    const used = this.used.get(key) ?? 0;
    if (used >= limit) {
      const resetsAt = new Date((day + 1) * DAY_MS);
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((resetsAt.getTime() - now) / 1000)),
        resetsAt,
        limit,
      };
    }
    this.used.set(key, used + 1);
    return { allowed: true };
  }

  /** Forgets all counters (tests that reuse an instance). */
  reset(): void {
    this.used.clear();
  }
}
