import { runWithinTime } from '../async.js';
import { isRecord } from '../is-record.js';
import type { StoredValue } from '../store/catalog-store.js';
import { readThroughLocked } from '../store/read-through.js';
import type { InstantInput, MintedToken, ResolvedManagerOptions } from './token-manager-options.js';

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
interface TokenRequest {
  /** A token the service refused (401): not accepted from the store again. */
  refused: string | undefined;
  /** Runs before waiting for the lock (the backoff after failed mints). */
  beforeLock: () => Promise<void>;
  /** Aborted when the manager closes: stops the wait and the mint. */
  closeSignal: AbortSignal;
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
      const held = await mintHeld(options, request.closeSignal);
      return {
        value: held,
        encoded: encodeStoredToken(held),
        // Whole ms, rounded down: the monotonic clock has fractions, and a store that rounds
        // them up would keep the token a moment past its life.
        ttlMs: Math.floor(held.expiresAt - options.monotonicNow()),
      };
    },
    beforeLock: request.beforeLock,
    leaseMs: options.mintTimeoutMs + LEASE_SLACK_MS,
    lockWaitMs: options.lockWaitMs,
    signal: request.closeSignal,
  });
}

function acceptStored(
  options: ResolvedManagerOptions,
  stored: StoredValue,
  refused: string | undefined,
): HeldToken | undefined {
  const now = options.monotonicNow();
  const held = decodeStoredToken(stored.value, stored.ttlMs, now, options.refreshMarginMs);
  return held && held.token !== refused && now < held.refreshAt ? held : undefined;
}

async function mintHeld(
  options: ResolvedManagerOptions,
  closeSignal: AbortSignal,
): Promise<HeldToken> {
  const wallSentAt = options.now();
  const sentAt = options.monotonicNow();
  const minted = await runWithinTime((signal) => options.mint({ signal }), {
    timeoutMs: options.mintTimeoutMs,
    closeSignal,
    what: 'Minting a conversation token',
  });
  const held = holdMintedToken(minted, {
    sentAt,
    wallSentAt,
    receivedAt: options.monotonicNow(),
    refreshMarginMs: options.refreshMarginMs,
  });
  if ('problem' in held) throw new UnusableMintResult(held.problem);
  return held;
}

/**
 * A token as the manager holds it. Its instants are on the monotonic clock
 * (`monotonicNow`), so a wall clock that steps after the mint changes nothing.
 */
export interface HeldToken {
  token: string;
  /** When the token stops working. */
  expiresAt: number;
  /** From this moment on, `getToken()` refreshes instead of handing the token out. */
  refreshAt: number;
  /** Full life of the token when it was minted; lets other instances use the same margin. */
  lifetimeMs: number;
}

/** When a mint started and ended, on both clocks. */
interface MintTimes {
  /** Monotonic time before the mint call. */
  sentAt: number;
  /** Monotonic time after it answered. */
  receivedAt: number;
  /**
   * Wall-clock time (epoch ms) before the mint call: only to read an `expiresAt` that came
   * without `serverDate`. Default: `sentAt`, for callers whose one clock is the wall clock.
   */
  wallSentAt?: number;
  refreshMarginMs: number;
}

/**
 * Maps a mint result onto the monotonic clock. The remaining life counts from `sentAt`:
 * the server created the token after that, so the estimate errs early.
 * - With a usable `serverDate`, the life is `expiresAt - serverDate`, both on the server's
 *   clock. One that cannot be parsed, or is not before `expiresAt`, is ignored.
 * - Without it, `expiresAt - wallSentAt` on the local wall clock. The service gives the life
 *   asked for (`ttlSeconds`), so a shorter apparent life means the local clock runs ahead by
 *   the difference. Up to half the ttl ahead, the apparent life is kept (it errs short, at
 *   most twice the mints); further ahead it would reject a fresh token or mint per message,
 *   so `ttlSeconds` alone decides: the token was created after `sentAt` and lives that long.
 * - `ttlSeconds` always caps the life: the token was created after `sentAt`.
 * Returns a message naming the offending field when the result is unusable.
 */
export function holdMintedToken(
  minted: MintedToken,
  times: MintTimes,
): HeldToken | { problem: string } {
  if (typeof minted?.token !== 'string' || minted.token.trim() === '') {
    return { problem: 'token must be a non-empty string' };
  }
  const life = lifeFromSentAt(minted, times.wallSentAt ?? times.sentAt);
  if ('problem' in life) return life;
  const expiresAt = times.sentAt + life.ms;
  const lifetimeMs = expiresAt - times.receivedAt;
  if (lifetimeMs <= 0) {
    // Without serverDate or ttlSeconds, a local clock that runs ahead cannot be told apart.
    const hint =
      minted.serverDate === undefined && minted.ttlSeconds === undefined
        ? '; return serverDate or ttlSeconds from the mint function so a wrong local clock is corrected'
        : '';
    return {
      problem: `expiresAt is not in the future (the token expired ${-lifetimeMs} ms ago)${hint}`,
    };
  }
  return {
    token: minted.token,
    expiresAt,
    lifetimeMs,
    refreshAt: refreshMoment(expiresAt, lifetimeMs, times.refreshMarginMs),
  };
}

/** How long the token lives from the start of the mint, in ms, capped by `ttlSeconds`. */
function lifeFromSentAt(
  minted: MintedToken,
  wallSentAt: number,
): { ms: number } | { problem: string } {
  const expires = parseInstant(minted.expiresAt, 'expiresAt');
  if ('problem' in expires) return expires;
  const ttl = ttlMsOf(minted.ttlSeconds);
  if (ttl !== undefined && 'problem' in ttl) return ttl;
  const lifeMs =
    lifeByServerDate(minted, expires.ms) ?? lifeByWallClock(expires.ms, wallSentAt, ttl);
  // When the measures disagree, the shorter wins: the token was created after `sentAt`.
  return { ms: ttl === undefined ? lifeMs : Math.min(lifeMs, ttl.ms) };
}

/**
 * The life `expiresAt - serverDate`, both on the server's clock, or undefined when the
 * `Date` cannot be used: unparseable (two headers joined by a proxy, `Date: now`), or at or
 * after `expiresAt` (a proxy's clock, not the one that set the expiry). Then the mint is read
 * as if no `Date` came, rather than refused while it created a real token.
 */
function lifeByServerDate(minted: MintedToken, expiresMs: number): number | undefined {
  if (minted.serverDate === undefined) return undefined;
  const serverDate = parseInstant(minted.serverDate, 'serverDate');
  if ('problem' in serverDate) return undefined;
  const lifeMs = expiresMs - latestServerTime(serverDate.ms);
  return lifeMs > 0 ? lifeMs : undefined;
}

/**
 * The life `expiresAt - wallSentAt` on the local wall clock. A clock far ahead (more than
 * half the ttl) would make it short or negative: then the ttl asked for is the only measure
 * of the life left.
 */
function lifeByWallClock(
  expiresMs: number,
  wallSentAt: number,
  ttl: { ms: number } | undefined,
): number {
  const lifeMs = expiresMs - wallSentAt;
  return ttl !== undefined && lifeMs < ttl.ms / 2 ? ttl.ms : lifeMs;
}

function ttlMsOf(ttlSeconds: number | undefined): { ms: number } | { problem: string } | undefined {
  if (ttlSeconds === undefined) return undefined;
  if (typeof ttlSeconds !== 'number' || !Number.isFinite(ttlSeconds) || ttlSeconds <= 0) {
    return { problem: 'ttlSeconds must be a positive number of seconds' };
  }
  return { ms: ttlSeconds * 1000 };
}

/**
 * An HTTP `Date` header has whole seconds, so the server's time was anywhere in the
 * following second: take its end, so the remaining life errs short rather than long.
 */
function latestServerTime(serverDateMs: number): number {
  return serverDateMs % 1000 === 0 ? serverDateMs + 999 : serverDateMs;
}

/**
 * The margin is capped at half the token's life: with a margin longer than the life, every
 * call would mint (one mint per message), which the usage rules forbid.
 */
function refreshMoment(expiresAt: number, lifetimeMs: number, marginMs: number): number {
  return expiresAt - Math.min(marginMs, lifetimeMs / 2);
}

/** Encodes a held token for a store; the TTL carries the expiry, so no clock is stored. */
function encodeStoredToken(held: HeldToken): string {
  return JSON.stringify({ token: held.token, lifetimeMs: held.lifetimeMs });
}

/**
 * Decodes a stored token read with `ttlMs` of life left. Returns undefined for anything
 * that is not a token record (then a fresh one is minted).
 */
function decodeStoredToken(
  value: string,
  ttlMs: number | undefined,
  now: number,
  marginMs: number,
): HeldToken | undefined {
  if (ttlMs === undefined || ttlMs <= 0) return undefined;
  const record = parseRecord(value);
  if (!record) return undefined;
  const expiresAt = now + ttlMs;
  const lifetimeMs = record.lifetimeMs ?? ttlMs;
  return {
    token: record.token,
    expiresAt,
    lifetimeMs,
    refreshAt: refreshMoment(expiresAt, lifetimeMs, marginMs),
  };
}

function parseRecord(value: string): { token: string; lifetimeMs?: number } | undefined {
  try {
    const parsed: unknown = JSON.parse(value);
    if (!isRecord(parsed)) return undefined;
    const { token, lifetimeMs } = parsed;
    if (typeof token !== 'string' || token === '') return undefined;
    return typeof lifetimeMs === 'number' && lifetimeMs > 0 ? { token, lifetimeMs } : { token };
  } catch {
    return undefined;
  }
}

/** Epoch milliseconds below this are almost surely epoch seconds passed by mistake (1973). */
const SECONDS_SUSPECT_BELOW = 1e11;

/** An ISO date and time without `Z` or an offset, e.g. Python's `utcnow().isoformat()`. */
const LOCAL_ISO_DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)$/;

/**
 * A service's instant without a UTC offset is UTC (`Date.parse` would read it as local time,
 * so every mint in a zone east of UTC would look expired): `Z` is added.
 */
function asUtcWhenNoOffset(value: string): string {
  const match = LOCAL_ISO_DATE_TIME.exec(value);
  return match ? `${match[1]}T${match[2]}Z` : value;
}

/**
 * Converts an application-supplied instant to epoch milliseconds, or returns a message
 * naming `field` that says what is wrong with it.
 */
function parseInstant(
  value: InstantInput | undefined,
  field: string,
): { ms: number } | { problem: string } {
  if (value instanceof Date) {
    const ms = value.getTime();
    return Number.isNaN(ms) ? { problem: `${field} is an invalid Date` } : { ms };
  }
  if (typeof value === 'number') return parseEpochMs(value, field);
  if (typeof value === 'string') {
    const ms = Date.parse(asUtcWhenNoOffset(value));
    return Number.isNaN(ms) ? { problem: `${field} is not a parseable date: "${value}"` } : { ms };
  }
  return { problem: `${field} must be a Date, a date string or epoch milliseconds` };
}

function parseEpochMs(value: number, field: string): { ms: number } | { problem: string } {
  if (!Number.isFinite(value)) return { problem: `${field} must be a finite number` };
  if (value < SECONDS_SUSPECT_BELOW) {
    return { problem: `${field} must be epoch milliseconds; ${value} looks like seconds` };
  }
  return { ms: value };
}
