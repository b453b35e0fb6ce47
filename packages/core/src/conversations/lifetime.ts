import { parseInstant } from './instant.js';
import type { MintedToken } from './types.js';

/** A token as the manager holds it; all instants are on the local clock (epoch ms). */
export interface HeldToken {
  token: string;
  /** When the token stops working. */
  expiresAt: number;
  /** From this moment on, `getToken()` refreshes instead of handing the token out. */
  refreshAt: number;
  /** Full life of the token when it was minted; lets other instances use the same margin. */
  lifetimeMs: number;
}

/**
 * Maps a mint result onto the local clock. With `serverDate`, the remaining life is
 * `expiresAt - serverDate` (both on the server's clock) counted from `sentAt`, the local
 * time before the mint call: the server answered after that, so the estimate errs early.
 * Returns a message naming the offending field when the result is unusable.
 */
export function holdMintedToken(
  minted: MintedToken,
  times: { sentAt: number; receivedAt: number; refreshMarginMs: number },
): HeldToken | { problem: string } {
  if (typeof minted?.token !== 'string' || minted.token.trim() === '') {
    return { problem: 'token must be a non-empty string' };
  }
  const expires = parseInstant(minted.expiresAt, 'expiresAt');
  if ('problem' in expires) return expires;
  let expiresAt = expires.ms;
  if (minted.serverDate !== undefined) {
    const serverDate = parseInstant(minted.serverDate, 'serverDate');
    if ('problem' in serverDate) return serverDate;
    expiresAt = times.sentAt + (expires.ms - latestServerTime(serverDate.ms));
  }
  const lifetimeMs = expiresAt - times.receivedAt;
  if (lifetimeMs <= 0) {
    return { problem: `expiresAt is not in the future (the token expired ${-lifetimeMs} ms ago)` };
  }
  return {
    token: minted.token,
    expiresAt,
    lifetimeMs,
    refreshAt: refreshMoment(expiresAt, lifetimeMs, times.refreshMarginMs),
  };
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
export function refreshMoment(expiresAt: number, lifetimeMs: number, marginMs: number): number {
  return expiresAt - Math.min(marginMs, lifetimeMs / 2);
}

/** Encodes a held token for a store; the TTL carries the expiry, so no clock is stored. */
export function encodeStoredToken(held: HeldToken): string {
  return JSON.stringify({ token: held.token, lifetimeMs: held.lifetimeMs });
}

/**
 * Decodes a stored token read with `ttlMs` of life left. Returns undefined for anything
 * that is not a token record (then a fresh one is minted).
 */
export function decodeStoredToken(
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
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { token, lifetimeMs } = parsed as Record<string, unknown>;
    if (typeof token !== 'string' || token === '') return undefined;
    return typeof lifetimeMs === 'number' && lifetimeMs > 0 ? { token, lifetimeMs } : { token };
  } catch {
    return undefined;
  }
}
