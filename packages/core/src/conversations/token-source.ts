import { runWithinTime } from '../async.js';
import { isRecord } from '../is-record.js';
import type { CatalogStore } from '../store/catalog-store.js';
import { readThroughLocked } from '../store/read-through.js';

/** A moment as an application may give it: a `Date`, an ISO 8601 / HTTP-date string, or epoch ms. */
export type InstantInput = Date | string | number;

/** What a mint function returns: one freshly minted conversation token. */
export interface MintedToken {
  /** The bearer token for the conversation's turns. */
  token: string;
  /** When the token stops working, on the server's clock. */
  expiresAt: InstantInput;
  /**
   * The server's time when it answered (usually the `Date` header): the token's life is then
   * read on the server's clock, so a local clock minutes off still refreshes in time.
   */
  serverDate?: InstantInput;
  /**
   * The life asked for, in seconds. The token is never held longer than this from the start
   * of the mint, whatever the clocks say (browsers hide `Date` from cross-origin reads).
   */
  ttlSeconds?: number;
}

/**
 * Mints one conversation token; supplied by the application (the contract does not show
 * how tokens are minted): on a server see `createHttpTokenMinter`, in a browser call your
 * backend. `signal` aborts when the mint times out or the manager is closed.
 */
export type TokenMinter = (context: { signal: AbortSignal }) => Promise<MintedToken>;

/**
 * A token as the manager holds it, its instants on the monotonic clock, so a wall clock
 * that steps after the mint changes nothing.
 */
export interface HeldToken {
  token: string;
  expiresAt: number;
  /** From this moment on, the token is refreshed instead of handed out. */
  refreshAt: number;
  /** Full life when minted; lets other instances use the same margin. */
  lifetimeMs: number;
}

/** What fetching a token needs of the manager's settings. */
export interface TokenSource {
  mint: TokenMinter;
  store: CatalogStore;
  key: string;
  refreshMarginMs: number;
  mintTimeoutMs: number;
  lockWaitMs: number;
  /** Wall clock (epoch ms): only reads the service's instants. */
  now: () => number;
  monotonicNow: () => number;
}

/**
 * The lock's lease outlives the longest mint by this much (the store read before and the
 * write after), so no second instance mints for the session while the holder does.
 */
const LEASE_SLACK_MS = 1_000;

/**
 * A usable token: the stored one while fresh (and not `refused` by a 401), else one minted
 * under the store's lock (read again once held, so a waiter uses the holder's token) and
 * written back with a TTL of its remaining life.
 */
export function readOrMintToken(
  source: TokenSource,
  refused: string | undefined,
  beforeLock: () => Promise<void>,
  closeSignal: AbortSignal,
): Promise<HeldToken> {
  return readThroughLocked({
    store: source.store,
    key: source.key,
    accept: (stored) => {
      const now = source.monotonicNow();
      const held = decodeStored(stored.value, stored.ttlMs, now, source.refreshMarginMs);
      return held && held.token !== refused && now < held.refreshAt ? held : undefined;
    },
    create: async () => {
      const held = await mint(source, closeSignal);
      const encoded = JSON.stringify({ token: held.token, lifetimeMs: held.lifetimeMs });
      // Whole ms, rounded down: a store that rounds fractions up would keep it past its life.
      return { value: held, encoded, ttlMs: Math.floor(held.expiresAt - source.monotonicNow()) };
    },
    beforeLock,
    leaseMs: source.mintTimeoutMs + LEASE_SLACK_MS,
    lockWaitMs: source.lockWaitMs,
    signal: closeSignal,
  });
}

const unusable = (problem: string) =>
  new Error(`the mint function returned an unusable result: ${problem}`);

/** The margin is capped at half the life: a longer one would mint per message. */
const held = (token: string, expiresAt: number, lifetimeMs: number, marginMs: number) => ({
  token,
  expiresAt,
  lifetimeMs,
  refreshAt: expiresAt - Math.min(marginMs, lifetimeMs / 2),
});

/**
 * Mints and maps the result onto the monotonic clock. The life counts from the start of the
 * mint (the server created the token later, so it errs early):
 * - with a usable `serverDate`, `expiresAt - serverDate`, both on the server's clock (one
 *   that cannot be parsed, or is not before `expiresAt`, is a proxy's: ignored);
 * - else `expiresAt` on the local wall clock, unless that leaves under half the ttl (the
 *   clock runs far ahead: it would refuse a fresh token or mint per message), then the ttl;
 * - `ttlSeconds` always caps it. An unusable result throws, naming the field.
 */
async function mint(source: TokenSource, closeSignal: AbortSignal): Promise<HeldToken> {
  const wallSentAt = source.now();
  const sentAt = source.monotonicNow();
  const minted = await runWithinTime((signal) => source.mint({ signal }), {
    timeoutMs: source.mintTimeoutMs,
    closeSignal,
    what: 'Minting a conversation token',
  });
  if (typeof minted?.token !== 'string' || minted.token.trim() === '') {
    throw unusable('token must be a non-empty string');
  }
  const expiresMs = instantMs(minted.expiresAt, 'expiresAt');
  const { ttlSeconds, serverDate } = minted;
  if (ttlSeconds !== undefined && !(Number.isFinite(ttlSeconds) && ttlSeconds > 0)) {
    throw unusable('ttlSeconds must be a positive number of seconds');
  }
  const ttlMs = ttlSeconds === undefined ? Number.POSITIVE_INFINITY : ttlSeconds * 1000;
  const wallLife = expiresMs - wallSentAt;
  const byWall = ttlSeconds !== undefined && wallLife < ttlMs / 2 ? ttlMs : wallLife;
  const life = lifeByServerDate(serverDate, expiresMs) ?? byWall;
  const expiresAt = sentAt + Math.min(life, ttlMs);
  const lifetimeMs = expiresAt - source.monotonicNow();
  if (lifetimeMs <= 0) {
    // Without serverDate or ttlSeconds, a local clock that runs ahead cannot be told apart.
    const hint =
      serverDate === undefined && ttlSeconds === undefined
        ? '; return serverDate or ttlSeconds from the mint function so a wrong local clock is corrected'
        : '';
    throw unusable(
      `expiresAt is not in the future (the token expired ${-lifetimeMs} ms ago)${hint}`,
    );
  }
  return held(minted.token, expiresAt, lifetimeMs, source.refreshMarginMs);
}

function lifeByServerDate(serverDate: InstantInput | undefined, expiresMs: number) {
  if (serverDate === undefined) return undefined;
  try {
    const dateMs = instantMs(serverDate, 'serverDate');
    // `Date` has whole seconds: take the end of that second, so the life errs short.
    const life = expiresMs - (dateMs % 1000 === 0 ? dateMs + 999 : dateMs);
    return life > 0 ? life : undefined;
  } catch {
    return undefined; // two headers joined by a proxy, `Date: now`: read as if none came
  }
}

/** A stored token read with `ttlMs` left; undefined for anything else (then one is minted). */
function decodeStored(value: string, ttlMs: number | undefined, now: number, marginMs: number) {
  if (ttlMs === undefined || ttlMs <= 0) return undefined;
  let record: unknown;
  try {
    record = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (!isRecord(record) || typeof record.token !== 'string' || record.token === '')
    return undefined;
  const { lifetimeMs } = record;
  const life = typeof lifetimeMs === 'number' && lifetimeMs > 0 ? lifetimeMs : ttlMs;
  return held(record.token, now + ttlMs, life, marginMs);
}

/** An ISO date and time without `Z` or an offset, e.g. Python's `utcnow().isoformat()`. */
const LOCAL_ISO = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)$/;

/** An application-supplied instant in epoch ms; throws naming `field` when it is unusable. */
function instantMs(value: InstantInput | undefined, field: string): number {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw unusable(`${field} is an invalid Date`);
    return value.getTime();
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw unusable(`${field} must be a finite number`);
    // Below 1e11 (1973) it is almost surely epoch seconds passed by mistake.
    if (value < 1e11) {
      throw unusable(`${field} must be epoch milliseconds; ${value} looks like seconds`);
    }
    return value;
  }
  if (typeof value !== 'string') {
    throw unusable(`${field} must be a Date, a date string or epoch milliseconds`);
  }
  // Without an offset the service's instant is UTC (Date.parse would read local time).
  const local = LOCAL_ISO.exec(value);
  const ms = Date.parse(local ? `${local[1]}T${local[2]}Z` : value);
  if (Number.isNaN(ms)) throw unusable(`${field} is not a parseable date: "${value}"`);
  return ms;
}
