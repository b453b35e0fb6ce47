import { monotonicMs } from '../async.js';
import { RateLimitError } from '../errors/api-errors.js';
import type { CatalogLogger } from '../logger.js';
import { MCP_OPERATIONS } from '../mcp-operations.js';
import type { CatalogStore } from '../store/catalog-store.js';
import { originOf, scopeDigest } from '../store/scope.js';
import { callStore, STORE_TIMEOUT_MS, storeName } from '../store/store-call.js';
import type { AttemptHooks, CallScope } from './call-scope.js';
import type { RetryPolicy } from './retry.js';

/**
 * The longest pause shared through the store: one hour, and never past the next UTC midnight
 * (limits reset on UTC days). A shared pause stops every instance, so one garbled or hostile
 * `Retry-After` must not stop them all for the day; after an hour one call finds out.
 */
const MAX_SHARED_PAUSE_MS = 3_600_000;

/** Slack past UTC midnight, for a service clock slightly behind ours. */
const MIDNIGHT_SLACK_MS = 60_000;

function untilUtcMidnightMs(now: number): number {
  const day = new Date(now);
  const midnight = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() + 1);
  return midnight - now + MIDNIGHT_SLACK_MS;
}

/** The pause shared for a `Retry-After` of `waitMs`, capped (see MAX_SHARED_PAUSE_MS). */
export function sharedPauseMs(waitMs: number, now: number = Date.now()): number {
  return Math.ceil(Math.min(waitMs, MAX_SHARED_PAUSE_MS, untilUtcMidnightMs(now)));
}

/** Times a pause is read again after waiting for it, in case another instance extended it. */
const MAX_PAUSE_ROUNDS = 3;

/**
 * Store key of a pause: `catalogkit:rate-limit:<rest|mcp>:<digest of origin and API key>`, so
 * instances with the same key and service share it and the key is never stored. Its TTL is
 * the pause; deleting it ends the pause.
 */
const KEY = 'catalogkit:rate-limit:';

/** The service's limits are separate for REST and for MCP (`MCP_OPERATIONS`). */
type Surface = 'rest' | 'mcp';

function surfaceOf(operation: string): Surface {
  return MCP_OPERATIONS.has(operation) ? 'mcp' : 'rest';
}

export interface RateLimitPauseSettings {
  store: CatalogStore;
  policy: RetryPolicy;
  logger: CatalogLogger | undefined;
  addresses: Record<Surface, string | undefined>;
  apiKey: string | undefined;
}

/**
 * The rate-limit pause shared through the store: after a 429 with `Retry-After`, calls wait
 * for the reset (or fail at once with a RateLimitError, nothing sent, when the wait does not
 * fit their time) instead of sending into the limit.
 *
 * A change reads the pause before each attempt. A search reads it only while this instance
 * knows of a pause, so in the common case a search costs no store operation (at worst one
 * search per instance meets the limit, and a search changes nothing). When the store fails,
 * a change fails before sending and a search goes on (logged).
 */
export class RateLimitPause implements AttemptHooks {
  readonly #settings: RateLimitPauseSettings;
  readonly #keys = new Map<Surface, Promise<string>>();
  /** When the pause this instance knows of ends (monotonic ms). */
  readonly #knownUntil = new Map<Surface, number>();

  constructor(settings: RateLimitPauseSettings) {
    this.#settings = settings;
  }

  beforeAttempt(scope: CallScope, waitedMs: number): number | Promise<number> {
    if (!scope.mutates && !this.#mayBePaused(surfaceOf(scope.operation))) return 0;
    return this.#waitOut(scope, waitedMs);
  }

  /** Whether this instance knows of a pause of `surface` that may still be in force. */
  #mayBePaused(surface: Surface): boolean {
    const until = this.#knownUntil.get(surface);
    if (until === undefined) return false;
    if (until > monotonicMs()) return true;
    this.#knownUntil.delete(surface);
    return false;
  }

  async #waitOut(scope: CallScope, waitedMs: number): Promise<number> {
    let waited = 0;
    for (let round = 0; round < MAX_PAUSE_ROUNDS; round++) {
      const leftMs = await this.#pauseLeft(scope);
      if (leftMs === undefined) return waited;
      const fits =
        waitedMs + waited + leftMs <= this.#settings.policy.maxRetryDelayMs &&
        leftMs < scope.remainingMs();
      if (!fits) throw pausedError(scope.operation, leftMs);
      this.#settings.logger?.info?.(
        `${scope.operation}: waiting ${leftMs} ms for a rate limit another call reached`,
        { operation: scope.operation, delayMs: leftMs, reason: 'rate limit pause' },
      );
      await scope.sleep(leftMs);
      waited += leftMs;
    }
    return waited;
  }

  async afterFailure(error: unknown, scope: CallScope): Promise<void> {
    // A pause's own error is not the service's answer: it is never shared again.
    if (!(error instanceof RateLimitError) || error.paused) return;
    const waitMs = error.retryAfterMs;
    if (waitMs === undefined || !(waitMs > 0)) return;
    const { store, logger } = this.#settings;
    const pauseMs = sharedPauseMs(waitMs);
    this.#knownUntil.set(surfaceOf(scope.operation), monotonicMs() + pauseMs);
    try {
      const key = await this.#key(scope.operation);
      await callStore(
        store,
        'sharing a rate limit pause',
        () => store.set(key, String(pauseMs), pauseMs),
        {
          signal: scope.signal,
          timeoutMs: Math.min(STORE_TIMEOUT_MS, Math.max(1, scope.remainingMs())),
        },
      );
    } catch {
      logger?.warn?.(`${scope.operation}: the rate limit pause could not be shared`, {
        operation: scope.operation,
        store: storeName(store),
      });
    }
  }

  /** Ends the pause of this key and these services; a StoreUnavailableError when the store fails. */
  async clear(): Promise<void> {
    const { store } = this.#settings;
    const surfaces: Surface[] = ['rest', 'mcp'];
    for (const surface of surfaces) {
      const key = await this.#keyOf(surface);
      await callStore(store, 'clearing the rate limit pause', () => store.delete(key));
      this.#knownUntil.delete(surface);
    }
  }

  /** Milliseconds the pause still lasts, or undefined when there is none. */
  async #pauseLeft(scope: CallScope): Promise<number | undefined> {
    const { store, logger } = this.#settings;
    let ttlMs: number | undefined;
    try {
      const key = await this.#key(scope.operation);
      const stored = await callStore(store, 'reading the rate limit pause', () => store.get(key), {
        signal: scope.signal,
        timeoutMs: Math.min(STORE_TIMEOUT_MS, Math.max(1, scope.remainingMs())),
      });
      ttlMs = stored?.ttlMs;
    } catch (error) {
      // The call's own end (time limit, abort) is reported by the call.
      if (scope.failure) throw scope.failure;
      // A change is never sent without knowing the pause; a search may go on without it.
      if (scope.mutates) throw error;
      logger?.warn?.(`${scope.operation}: the rate limit pause could not be read; going on`, {
        operation: scope.operation,
        store: storeName(store),
      });
      return undefined;
    }
    const surface = surfaceOf(scope.operation);
    if (ttlMs === undefined || !(ttlMs > 0)) {
      this.#knownUntil.delete(surface);
      return undefined;
    }
    this.#knownUntil.set(surface, monotonicMs() + ttlMs);
    return Math.ceil(ttlMs);
  }

  #key(operation: string): Promise<string> {
    return this.#keyOf(surfaceOf(operation));
  }

  #keyOf(surface: Surface): Promise<string> {
    let key = this.#keys.get(surface);
    if (key === undefined) {
      const { addresses, apiKey } = this.#settings;
      // Without Web Crypto (a page over plain HTTP) every key of the address shares one pause.
      key = scopeDigest(originOf(addresses[surface]), apiKey).then(
        (id) => `${KEY}${surface}:${id ?? 'any'}`,
      );
      this.#keys.set(surface, key);
    }
    return key;
  }
}

/** The RateLimitError of a call the pause stopped before sending. */
function pausedError(operation: string, leftMs: number): RateLimitError {
  return new RateLimitError({
    status: 429,
    detail: undefined,
    headers: {},
    message: `${operation}: not sent, a rate limit (429) another call reached resets in ${leftMs} ms`,
    retryAfterMs: leftMs,
    resetsAt: new Date(Date.now() + leftMs),
    paused: true,
  });
}
