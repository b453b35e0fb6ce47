/** Backoff between failed mints. */
export interface BackoffOptions {
  /** Wait after the first failure, in ms (default 1,000). */
  initialMs?: number;
  /** Longest wait, in ms (default 30,000). */
  maxMs?: number;
}

/**
 * Exponential backoff with "equal jitter": half the delay is fixed so retries stay spaced,
 * half is random so many clients that failed together do not retry together.
 */
export function backoffDelayMs(
  failures: number,
  options: BackoffOptions,
  random: () => number,
): number {
  const initial = options.initialMs ?? 1_000;
  const max = options.maxMs ?? 30_000;
  const ceiling = Math.min(max, initial * 2 ** Math.max(0, failures - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
