import {
  decodeStoredToken,
  encodeStoredToken,
  type HeldToken,
  holdMintedToken,
} from './lifetime.js';
import { readThroughLocked } from './read-through.js';
import type { StoredValue } from './store.js';
import type { ResolvedManagerOptions } from './token-manager-options.js';
import { runWithinTime } from './within-time.js';

/**
 * The lock's lease outlives the longest mint (aborted at `mintTimeoutMs`) by this much,
 * for the store read before the mint and the write after it. So the lock cannot expire
 * while its holder mints, and no second instance mints for the session meanwhile.
 */
const LEASE_SLACK_MS = 1_000;

/** The mint function returned something unusable; the message names the field. */
class UnusableMintResult extends Error {
  constructor(problem: string) {
    super(`the mint function returned an unusable result: ${problem}`);
    this.name = 'UnusableMintResult';
  }
}

/** What one fetch of a token needs besides the manager's options. */
export interface TokenRequest {
  /** A token the service refused (401): not accepted from the store again. */
  refused: string | undefined;
  /** Runs before waiting for the lock (the backoff after failed mints). */
  beforeLock: () => Promise<void>;
  /** The manager's lifetime: closing it stops the wait and the mint. */
  lifetime: AbortSignal;
}

/**
 * A usable token of the session: the one in the store when it is still fresh, else a new
 * one minted under the store's lock (read again once the lock is held, so an instance that
 * waited uses the holder's token) and written back with a TTL of its remaining life.
 */
export function readOrMintToken(
  options: ResolvedManagerOptions,
  request: TokenRequest,
): Promise<HeldToken> {
  return readThroughLocked({
    store: options.store,
    key: options.key,
    accept: (stored) => acceptStored(options, stored, request.refused),
    create: async () => {
      const held = await mintHeld(options, request.lifetime);
      return {
        value: held,
        encoded: encodeStoredToken(held),
        ttlMs: held.expiresAt - options.now(),
      };
    },
    beforeLock: request.beforeLock,
    leaseMs: options.mintTimeoutMs + LEASE_SLACK_MS,
    lockWaitMs: options.lockWaitMs,
    signal: request.lifetime,
  });
}

function acceptStored(
  options: ResolvedManagerOptions,
  stored: StoredValue,
  refused: string | undefined,
): HeldToken | undefined {
  const now = options.now();
  const held = decodeStoredToken(stored.value, stored.ttlMs, now, options.refreshMarginMs);
  return held && held.token !== refused && now < held.refreshAt ? held : undefined;
}

async function mintHeld(
  options: ResolvedManagerOptions,
  lifetime: AbortSignal,
): Promise<HeldToken> {
  const sentAt = options.now();
  const minted = await runWithinTime((signal) => options.mint({ signal }), {
    timeoutMs: options.mintTimeoutMs,
    lifetime,
    what: 'Minting a conversation token',
  });
  const held = holdMintedToken(minted, {
    sentAt,
    receivedAt: options.now(),
    refreshMarginMs: options.refreshMarginMs,
  });
  if ('problem' in held) throw new UnusableMintResult(held.problem);
  return held;
}
