/** A parsed `Retry-After`: how long to wait and when the wait ends. */
export interface RetryAfter {
  retryAfterMs: number;
  resetsAt: Date;
}

/**
 * The longest wait a server's Retry-After is taken at: one week. Rate limits reset on UTC
 * days, so anything longer is a broken value (20 digits, `1e300`); clamping keeps
 * `resetsAt` a valid Date instead of an Invalid Date that throws when formatted.
 */
const MAX_RETRY_AFTER_MS = 604_800_000; // a week

const DELTA_SECONDS = /^\s*(\d+)\s*$/;
// Every HTTP-date form (IMF-fixdate, RFC 850, asctime) starts with a day name; checking
// that keeps Date.parse from reading "-5" or "2030" as dates.
const HTTP_DATE_START = /^\s*[A-Za-z]{3}/;

/** A wait of `ms` from `now`, clamped to 0..MAX_RETRY_AFTER_MS. */
function waitOf(ms: number, now: number): RetryAfter {
  const retryAfterMs = Math.min(Math.max(0, ms), MAX_RETRY_AFTER_MS);
  return { retryAfterMs, resetsAt: new Date(now + retryAfterMs) };
}

/**
 * A wait given in seconds (JSON-RPC `data.retry_after`), clamped like a header; undefined
 * for a negative, non-finite or non-numeric value.
 */
export function retryAfterFromSeconds(
  seconds: number,
  now: number = Date.now(),
): RetryAfter | undefined {
  if (!Number.isFinite(seconds) || seconds < 0) return undefined;
  return waitOf(seconds * 1000, now);
}

/**
 * Parses `Retry-After` (RFC 9110 §10.2.3): delta-seconds or an HTTP-date. A date in the
 * past means "now" (0 ms); a wait beyond a week is clamped to a week. Returns undefined
 * for a missing or unreadable value.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): RetryAfter | undefined {
  if (!value) return undefined;
  const seconds = DELTA_SECONDS.exec(value);
  // Number() of 400 digits is Infinity, clamped like any long wait.
  if (seconds) return waitOf(Number(seconds[1]) * 1000, now);
  const moment = HTTP_DATE_START.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(moment)) return undefined;
  return waitOf(moment - now, now);
}
