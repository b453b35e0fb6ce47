import { sleep } from '../async.js';
import { StoreUnavailableError, TokenMintError } from '../errors/conversation-errors.js';

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
function backoffDelayMs(failures: number, options: BackoffOptions, random: () => number): number {
  const initial = options.initialMs ?? 1_000;
  const max = options.maxMs ?? 30_000;
  const ceiling = Math.min(max, initial * 2 ** Math.max(0, failures - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/** What {@link MintFailures} needs: the backoff settings, jitter and the local clock. */
interface MintFailuresOptions {
  backoff: BackoffOptions;
  random: () => number;
  /** Monotonic clock (ms) that times the backoff, so a wall-clock step neither skips nor stretches it. */
  monotonicNow: () => number;
  /** Wall clock (epoch ms), only to date `TokenMintError.retryAt`. */
  now: () => number;
}

/**
 * Consecutive failed mints of one session and when the next mint may be tried. Nothing
 * retries on its own: the next caller waits out the backoff, then mints.
 */
export class MintFailures {
  readonly #options: MintFailuresOptions;
  #count = 0;
  #nextAttemptAt = 0;

  constructor(options: MintFailuresOptions) {
    this.#options = options;
  }

  /** Whether the last mint failed and its backoff has not ended yet. */
  backingOff(): boolean {
    return this.#count > 0 && this.#options.monotonicNow() < this.#nextAttemptAt;
  }

  /** Waits until the backoff of the last failure has ended (at once when none is running). */
  async waitOut(signal: AbortSignal): Promise<void> {
    if (this.backingOff()) {
      await sleep(this.#nextAttemptAt - this.#options.monotonicNow(), signal);
    }
  }

  /** A mint succeeded: the next failure starts again from the first backoff step. */
  reset(): void {
    this.#count = 0;
  }

  /**
   * Counts a failed mint, starts its backoff and returns the error to give callers: the
   * store's StoreUnavailableError as it is (one type for a failing store, whether it failed
   * reading, locking, writing back or in the client's own store read inside the mint),
   * anything else as a TokenMintError with the error as `cause`.
   */
  record(error: unknown): TokenMintError | StoreUnavailableError {
    this.#count += 1;
    const { backoff, random, monotonicNow, now } = this.#options;
    const delayMs = backoffDelayMs(this.#count, backoff, random);
    this.#nextAttemptAt = monotonicNow() + delayMs;
    if (StoreUnavailableError.is(error)) return error;
    const what = error instanceof Error ? error.message : String(error);
    return new TokenMintError(
      `Could not obtain a conversation token (attempt ${this.#count}): ${what}. The next attempt waits ${delayMs} ms.`,
      { cause: error, attempt: this.#count, retryAt: now() + delayMs },
    );
  }
}
