/** A parsed `Retry-After`: how long to wait and when the wait ends. */
export interface RetryAfter {
  retryAfterMs: number;
  resetsAt: Date;
}

const DELTA_SECONDS = /^\s*(\d+)\s*$/;
// Every HTTP-date form (IMF-fixdate, RFC 850, asctime) starts with a day name; checking
// that keeps Date.parse from reading "-5" or "2030" as dates.
const HTTP_DATE_START = /^\s*[A-Za-z]{3}/;

/**
 * Parses `Retry-After` (RFC 9110 §10.2.3): delta-seconds or an HTTP-date. A date in the
 * past means "now" (0 ms). Returns undefined for a missing or unreadable value.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): RetryAfter | undefined {
  if (!value) return undefined;
  const seconds = DELTA_SECONDS.exec(value);
  if (seconds) {
    const retryAfterMs = Number(seconds[1]) * 1000;
    return { retryAfterMs, resetsAt: new Date(now + retryAfterMs) };
  }
  const moment = HTTP_DATE_START.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(moment)) return undefined;
  return { retryAfterMs: Math.max(0, moment - now), resetsAt: new Date(Math.max(moment, now)) };
}
