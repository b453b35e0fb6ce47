import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ConversationTokenManager,
  MemoryCatalogStore,
  type MintedToken,
} from '../src/conversations/index.js';
import { TokenMintError } from '../src/errors/index.js';

/*
 * Conversation tokens while the local wall clock is wrong or steps (issue 23). Every timer,
 * Date and performance.now() are faked: vi.setSystemTime steps only the wall clock (Date),
 * as NTP or a person setting the clock would, while performance.now() runs on; the service
 * keeps its own clock, which no local step touches.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const SERVICE_EPOCH = Date.UTC(2026, 0, 1, 9);

/** The service's clock: it runs with real (faked) elapsed time and never steps. */
function serviceNow(offsetMs = 0): number {
  return SERVICE_EPOCH + performance.now() + offsetMs;
}

/**
 * A stand-in for the service's token bookkeeping on its own clock: mints tokens of
 * `ttlSeconds` (sending `Date` or not) and records every use of an expired token.
 */
function tokenService(options: {
  ttlSeconds: number;
  sendDate: boolean;
  offsetMs?: number;
  duringMint?: () => void;
}) {
  const expiries = new Map<string, number>();
  const service = {
    mints: 0,
    uses: 0,
    expiredUses: 0,
    mint: async (): Promise<MintedToken> => {
      service.mints += 1;
      const token = `tok_${service.mints}`;
      const now = serviceNow(options.offsetMs);
      const expiresAt = now + options.ttlSeconds * 1000;
      expiries.set(token, expiresAt);
      options.duringMint?.();
      return {
        token,
        expiresAt: new Date(expiresAt).toISOString(),
        ...(options.sendDate ? { serverDate: new Date(now).toUTCString() } : {}),
        ttlSeconds: options.ttlSeconds,
      };
    },
    use(token: string) {
      service.uses += 1;
      const expiresAt = expiries.get(token);
      if (expiresAt === undefined || serviceNow(options.offsetMs) >= expiresAt) {
        service.expiredUses += 1;
      }
    },
  };
  return service;
}

beforeEach(() => {
  // The local wall clock starts equal to the service's.
  vi.useFakeTimers({ now: SERVICE_EPOCH + performance.now() });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Steps the local wall clock only (Date), like an NTP correction. */
function stepWallClock(ms: number): void {
  vi.setSystemTime(Date.now() + ms);
}

describe('a local clock far ahead of the service, no Date header', () => {
  it('90 minutes ahead: the first mint is held (no "expiresAt is not in the future"), one mint per life', async () => {
    stepWallClock(90 * MINUTE);
    const service = tokenService({ ttlSeconds: 1800, sendDate: false });
    const manager = new ConversationTokenManager({ mint: service.mint, refreshMarginMs: MINUTE });
    for (let elapsed = 0; elapsed < 2 * HOUR; elapsed += 30_000) {
      service.use(await manager.getToken());
      await vi.advanceTimersByTimeAsync(30_000);
    }
    manager.close();
    expect(service.expiredUses).toBe(0);
    // One token per 29 minutes of chat, as with a right clock: 120 / 29 → 5 mints.
    expect(service.mints).toBe(Math.ceil((2 * HOUR) / (30 * MINUTE - MINUTE)));
  });

  it.each([15, 29, 31, 600])(
    '%i minutes ahead: never an expired token, never a rejected mint',
    async (minutes) => {
      stepWallClock(minutes * MINUTE);
      const service = tokenService({ ttlSeconds: 1800, sendDate: false });
      const manager = new ConversationTokenManager({ mint: service.mint, refreshMarginMs: MINUTE });
      for (let elapsed = 0; elapsed < HOUR; elapsed += 20_000) {
        service.use(await manager.getToken());
        await vi.advanceTimersByTimeAsync(20_000);
      }
      manager.close();
      expect(service.expiredUses).toBe(0);
      // Never a mint per message: at most twice the mints of a right clock (3 in an hour).
      expect(service.mints).toBeLessThanOrEqual(2 * Math.ceil(HOUR / (30 * MINUTE - MINUTE)));
    },
  );
});

describe('the wall clock stepping during or after a mint', () => {
  it.each([true, false])(
    '+1 h during the mint (Date header %s): the fresh token is used, one mint',
    async (sendDate) => {
      const service = tokenService({
        ttlSeconds: 1800,
        sendDate,
        duringMint: () => stepWallClock(HOUR),
      });
      const manager = new ConversationTokenManager({ mint: service.mint });
      const token = await manager.getToken();
      service.use(token);
      service.use(await manager.getToken());
      expect(token).toBe('tok_1');
      expect(service.mints).toBe(1);
      expect(service.expiredUses).toBe(0);
      manager.close();
    },
  );

  it('−1 h after a mint: the token is not handed out past its expiry (memory)', async () => {
    const service = tokenService({ ttlSeconds: 300, sendDate: true });
    const manager = new ConversationTokenManager({ mint: service.mint, refreshMarginMs: MINUTE });
    service.use(await manager.getToken());
    stepWallClock(-HOUR);
    for (let elapsed = 0; elapsed < 20 * MINUTE; elapsed += 10_000) {
      await vi.advanceTimersByTimeAsync(10_000);
      service.use(await manager.getToken());
    }
    manager.close();
    expect(service.expiredUses).toBe(0);
    expect(service.mints).toBeGreaterThanOrEqual(5);
  });

  it('−1 h after a mint: a second instance reading the shared store gets no expired token', async () => {
    const service = tokenService({ ttlSeconds: 300, sendDate: true });
    const store = new MemoryCatalogStore();
    const first = new ConversationTokenManager({ mint: service.mint, store, key: 'chat:1' });
    service.use(await first.getToken());
    stepWallClock(-HOUR);
    await vi.advanceTimersByTimeAsync(6 * MINUTE);
    const second = new ConversationTokenManager({ mint: service.mint, store, key: 'chat:1' });
    service.use(await second.getToken());
    service.use(await first.getToken());
    first.close();
    second.close();
    expect(service.expiredUses).toBe(0);
  });

  it('getTokenInfo dates the expiry on the wall clock as it reads after a step', async () => {
    const service = tokenService({ ttlSeconds: 1800, sendDate: true });
    const manager = new ConversationTokenManager({ mint: service.mint });
    await manager.getToken();
    stepWallClock(-HOUR);
    const { expiresAt } = await manager.getTokenInfo();
    // About 30 minutes from the wall clock's "now", not 90.
    expect(expiresAt.getTime() - Date.now()).toBeGreaterThan(29 * MINUTE);
    expect(expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(30 * MINUTE);
    manager.close();
  });

  it('a wall clock stepped back does not stretch the backoff after a failed mint', {
    timeout: 5_000,
  }, async () => {
    let calls = 0;
    const manager = new ConversationTokenManager({
      mint: async () => {
        calls += 1;
        if (calls === 1) throw new Error('service down');
        return { token: 'tok_ok', expiresAt: serviceNow() + 30 * MINUTE, ttlSeconds: 1800 };
      },
    });
    await expect(manager.getToken()).rejects.toBeInstanceOf(TokenMintError);
    stepWallClock(-HOUR);
    const next = manager.getToken();
    await vi.advanceTimersByTimeAsync(1_100);
    await expect(next).resolves.toBe('tok_ok');
    manager.close();
  });
});
