import { sleep } from '../async.js';
import { RateLimitError } from '../errors/api-errors.js';
import type { CatalogLogger } from '../logger.js';
import { MCP_OPERATIONS } from '../mcp-operations.js';
import type { CatalogStore } from '../store/catalog-store.js';
import { originOf, scopeDigest } from '../store/scope.js';
import { callStore, STORE_TIMEOUT_MS, storeName } from '../store/store-call.js';
import type { AttemptHooks, CallScope } from './call-scope.js';
import type { RetryPolicy } from './retry.js';

/**
 * The pause shared for a `Retry-After` of `waitMs`: at most an hour, and never past the next
 * UTC midnight (plus a minute of clock slack), when limits reset. A shared pause stops every
 * instance, so one garbled or hostile `Retry-After` must not stop them all for the day.
 */
export function sharedPauseMs(waitMs: number, now: number = Date.now()): number {
  const day = new Date(now);
  const midnight = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() + 1);
  return Math.ceil(Math.min(waitMs, 3_600_000, midnight - now + 60_000));
}

/** The service limits REST and MCP separately. */
type Surface = 'rest' | 'mcp';

const surfaceOf = (scope: CallScope): Surface =>
  MCP_OPERATIONS.has(scope.operation) ? 'mcp' : 'rest';

export interface RateLimitPauseSettings {
  store: CatalogStore;
  policy: RetryPolicy;
  logger: CatalogLogger | undefined;
  addresses: Record<Surface, string | undefined>;
  apiKey: string | undefined;
}

/**
 * The pause after a 429 with `Retry-After`, shared through the store with the pause as TTL:
 * calls wait for the reset, or fail unsent with a RateLimitError when the wait does not fit.
 * A search reads it only while this instance knows of one (see docs/SECURITY.md).
 */
export class RateLimitPause implements AttemptHooks {
  readonly #settings: RateLimitPauseSettings;
  readonly #keys: Partial<Record<Surface, Promise<string>>> = {};
  /** When the pause this instance knows of ends (performance.now() ms). */
  readonly #knownUntil: Record<Surface, number> = { rest: 0, mcp: 0 };

  constructor(settings: RateLimitPauseSettings) {
    this.#settings = settings;
  }

  beforeAttempt(scope: CallScope, waitedMs: number): number | Promise<number> {
    if (!scope.mutates && this.#knownUntil[surfaceOf(scope)] <= performance.now()) return 0;
    return this.#waitOut(scope, waitedMs);
  }

  async #waitOut(scope: CallScope, waitedMs: number): Promise<number> {
    const leftMs = await this.#pauseLeft(scope);
    if (leftMs === 0) return 0;
    if (
      waitedMs + leftMs > this.#settings.policy.maxRetryDelayMs ||
      leftMs >= scope.remainingMs()
    ) {
      throw new RateLimitError({
        status: 429,
        detail: undefined,
        headers: {},
        message: `${scope.operation}: not sent, a rate limit (429) another call reached resets in ${leftMs} ms`,
        retryAfterMs: leftMs,
        resetsAt: new Date(Date.now() + leftMs),
        paused: true,
      });
    }
    this.#settings.logger?.info?.(
      `${scope.operation}: waiting ${leftMs} ms for a rate limit another call reached`,
      { operation: scope.operation, delayMs: leftMs, reason: 'rate limit pause' },
    );
    await sleep(leftMs, scope.signal);
    return leftMs;
  }

  async #pauseLeft(scope: CallScope): Promise<number> {
    let ttlMs: number | undefined;
    try {
      ttlMs = (await this.#onStore(scope, 'reading', (store, key) => store.get(key)))?.ttlMs;
    } catch (error) {
      // The call's own end (time limit, abort) is reported by the call. A change is never
      // sent without knowing the pause; a search may go on without it.
      if (scope.failure) throw scope.failure;
      if (scope.mutates) throw error;
      this.#warn(scope, 'the rate limit pause could not be read; going on');
      return 0;
    }
    const leftMs = ttlMs !== undefined && ttlMs > 0 ? Math.ceil(ttlMs) : 0;
    this.#knownUntil[surfaceOf(scope)] = performance.now() + leftMs;
    return leftMs;
  }

  async afterFailure(error: unknown, scope: CallScope): Promise<void> {
    // A pause's own error is not the service's answer: it is never shared again.
    const waitMs =
      error instanceof RateLimitError && !error.paused ? error.retryAfterMs : undefined;
    if (waitMs === undefined || !(waitMs > 0)) return;
    const pauseMs = sharedPauseMs(waitMs);
    this.#knownUntil[surfaceOf(scope)] = performance.now() + pauseMs;
    await this.#onStore(scope, 'sharing', (store, key) =>
      store.set(key, String(pauseMs), pauseMs),
    ).catch(() => this.#warn(scope, 'the rate limit pause could not be shared'));
  }

  /** Ends the pause of this key and service; a StoreUnavailableError when the store fails. */
  async clear(): Promise<void> {
    const { store } = this.#settings;
    for (const surface of ['rest', 'mcp'] as const) {
      const key = await this.#key(surface);
      await callStore(store, 'clearing the rate limit pause', () => store.delete(key));
      this.#knownUntil[surface] = 0;
    }
  }

  /** One store operation on the call's pause; it ends with the call, or at the store's limit. */
  async #onStore<T>(
    scope: CallScope,
    doing: string,
    operation: (store: CatalogStore, key: string) => Promise<T>,
  ): Promise<T> {
    const { store } = this.#settings;
    const key = await this.#key(surfaceOf(scope));
    return callStore(store, `${doing} the rate limit pause`, () => operation(store, key), {
      signal: scope.signal,
      timeoutMs: Math.min(STORE_TIMEOUT_MS, Math.max(1, scope.remainingMs())),
    });
  }

  #warn(scope: CallScope, what: string): void {
    const { logger, store } = this.#settings;
    logger?.warn?.(`${scope.operation}: ${what}`, {
      operation: scope.operation,
      store: storeName(store),
    });
  }

  #key(surface: Surface): Promise<string> {
    const { addresses, apiKey } = this.#settings;
    // Without Web Crypto (a page over plain HTTP) every key of the address shares one pause.
    this.#keys[surface] ??= scopeDigest(originOf(addresses[surface]), apiKey).then(
      (id) => `catalogkit:rate-limit:${surface}:${id ?? 'any'}`,
    );
    return this.#keys[surface];
  }
}
