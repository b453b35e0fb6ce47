import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type CatalogStore,
  ConversationTokenManager,
  MemoryCatalogStore,
  type MintedToken,
} from '../src/conversations/index.js';
import { TokenMintError } from '../src/errors/index.js';
import { AbortError, ConfigurationError } from '../src/index.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * A stand-in for the service's token bookkeeping, on its own clock (which may be off from
 * the client's): mints tokens and records every use of an expired one.
 */
function tokenAuthority(options: { ttlMs: number; serverOffsetMs?: number; sendDate?: boolean }) {
  const expiries = new Map<string, number>();
  const serverNow = () => Date.now() + (options.serverOffsetMs ?? 0);
  const authority = {
    mints: 0,
    uses: 0,
    expiredUses: 0,
    mint: async (): Promise<MintedToken> => {
      authority.mints += 1;
      const token = `tok_${authority.mints}`;
      const expiresAt = serverNow() + options.ttlMs;
      expiries.set(token, expiresAt);
      const serverDate = options.sendDate ? new Date(serverNow()).toUTCString() : undefined;
      return { token, expiresAt: new Date(expiresAt).toISOString(), serverDate };
    },
    use: (token: string) => {
      authority.uses += 1;
      const expiresAt = expiries.get(token);
      if (expiresAt === undefined || serverNow() >= expiresAt) authority.expiredUses += 1;
    },
  };
  return authority;
}

/** Sends one message every `intervalMs` for `durationMs` of fake time. */
async function simulateChat(
  manager: ConversationTokenManager,
  use: (token: string) => void,
  durationMs: number,
  intervalMs: number,
) {
  for (let elapsed = 0; elapsed < durationMs; elapsed += intervalMs) {
    use(await manager.getToken());
    await vi.advanceTimersByTimeAsync(intervalMs);
  }
}

/** A memory store that counts its calls. */
function countingStore() {
  const inner = new MemoryCatalogStore();
  const calls = { get: 0, set: 0, lock: 0 };
  const store: CatalogStore & { calls: typeof calls } = {
    calls,
    get: (key) => {
      calls.get += 1;
      return inner.get(key);
    },
    set: (key, value, ttlMs) => {
      calls.set += 1;
      return inner.set(key, value, ttlMs);
    },
    setIfAbsent: (key, value, ttlMs) => inner.setIfAbsent(key, value, ttlMs),
    delete: (key) => inner.delete(key),
    deleteIfEquals: (key, value) => inner.deleteIfEquals(key, value),
    lock: (key, options) => {
      calls.lock += 1;
      return inner.lock(key, options);
    },
  };
  return store;
}

beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2025, 0, 1, 9) });
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Fixes the backoff's jitter: 0 waits half the ceiling, 1 the whole ceiling. */
const jitter = (value: number) => vi.spyOn(Math, 'random').mockReturnValue(value);

describe('ConversationTokenManager lifecycle', () => {
  const TOKEN_MS = 30 * MINUTE;
  const MARGIN_MS = MINUTE;
  const CHAT_MS = 8 * HOUR;
  // Each token serves from its mint until the refresh margin: 29 minutes.
  const LIFETIMES = Math.ceil(CHAT_MS / (TOKEN_MS - MARGIN_MS));

  it.each([{ intervalMs: 5_000 }, { intervalMs: 7_000 }])(
    'an eight-hour chat mints once per token lifetime (%o)',
    async ({ intervalMs }) => {
      const authority = tokenAuthority({ ttlMs: TOKEN_MS });
      const manager = new ConversationTokenManager({
        mint: authority.mint,
        refreshMarginMs: MARGIN_MS,
      });
      await simulateChat(manager, authority.use, CHAT_MS, intervalMs);
      manager.close();

      expect(authority.uses).toBe(Math.ceil(CHAT_MS / intervalMs));
      expect(authority.expiredUses).toBe(0);
      expect(authority.mints).toBe(LIFETIMES);
    },
  );

  it('never hands out an expired token, even after the chat sat idle past expiry', async () => {
    const authority = tokenAuthority({ ttlMs: TOKEN_MS });
    const manager = new ConversationTokenManager({ mint: authority.mint });
    authority.use(await manager.getToken());
    await vi.advanceTimersByTimeAsync(TOKEN_MS + MINUTE);
    authority.use(await manager.getToken());
    expect(authority.expiredUses).toBe(0);
    expect(authority.mints).toBe(2);
  });

  it('caps the margin at half a short token life, so it does not mint per message', async () => {
    const authority = tokenAuthority({ ttlMs: MINUTE });
    // A 5-minute margin on a 1-minute token would otherwise make every call mint.
    const manager = new ConversationTokenManager({
      mint: authority.mint,
      refreshMarginMs: 5 * MINUTE,
    });
    await simulateChat(manager, authority.use, 10 * MINUTE, 5_000);
    expect(authority.expiredUses).toBe(0);
    expect(authority.mints).toBe(20);
  });
});

describe('ConversationTokenManager concurrency and failures', () => {
  it('1,000 concurrent getToken() calls share exactly one mint and one store round', async () => {
    let mints = 0;
    const store = countingStore();
    const manager = new ConversationTokenManager({
      store,
      key: 'chat:1:token',
      mint: async () => {
        mints += 1;
        await new Promise((resolve) => setTimeout(resolve, 250));
        return { token: `tok_${mints}`, expiresAt: Date.now() + 30 * MINUTE };
      },
    });
    const calls = Array.from({ length: 1_000 }, () => manager.getToken());
    await vi.advanceTimersByTimeAsync(250);
    const tokens = await Promise.all(calls);
    expect(mints).toBe(1);
    expect(new Set(tokens)).toEqual(new Set(['tok_1']));
    // Single flight in the process: the store (Redis, say) sees one read-lock-read-write.
    expect(store.calls).toEqual({ get: 2, set: 1, lock: 1 });
  });

  it('a failing mint gives a clear error, is not cached, and a later call retries after a backoff', async () => {
    let mints = 0;
    jitter(0); // the first backoff is exactly half of 1,000 ms
    const manager = new ConversationTokenManager({
      mint: async () => {
        mints += 1;
        if (mints === 1) throw new Error('token service unavailable');
        return { token: 'tok_ok', expiresAt: Date.now() + 30 * MINUTE };
      },
    });

    const failure = await manager.getToken().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TokenMintError);
    expect((failure as TokenMintError).message).toMatch(/token service unavailable/);
    expect((failure as TokenMintError).message).toMatch(/next attempt waits 500 ms/);
    expect((failure as TokenMintError).cause).toBeInstanceOf(Error);
    expect((failure as TokenMintError).attempt).toBe(1);

    // No retry loop: without a caller nothing is minted, however long we wait.
    await vi.advanceTimersByTimeAsync(0);
    expect(mints).toBe(1);

    const retried = manager.getToken();
    await vi.advanceTimersByTimeAsync(499);
    expect(mints).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(retried).resolves.toBe('tok_ok');
    expect(mints).toBe(2);
  });

  it('consecutive failures back off exponentially and stay bounded', async () => {
    let mints = 0;
    jitter(1); // full jitter: delays are the ceilings, 1 s doubling up to 30 s
    const manager = new ConversationTokenManager({
      mint: async () => {
        mints += 1;
        throw new Error('down');
      },
    });
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 7; attempt++) {
      const call = manager.getToken().then(
        () => expect.unreachable('the mint always fails'),
        (error: unknown) => error as TokenMintError,
      );
      await vi.runAllTimersAsync();
      const error = await call;
      waits.push(error.retryAt - Date.now());
    }
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
    expect(mints).toBe(7);
  });

  it('names the offending field when the mint function returns an unusable result', async () => {
    const cases: [MintedToken, RegExp][] = [
      [{ token: '', expiresAt: Date.now() + MINUTE }, /token must be a non-empty string/],
      [{ token: 't', expiresAt: 'soon' }, /expiresAt is not a parseable date/],
      [
        { token: 't', expiresAt: Math.floor(Date.now() / 1000) + 60 },
        /expiresAt .*looks like seconds/,
      ],
      [{ token: 't', expiresAt: Date.now() - 1 }, /expiresAt is not in the future/],
      // An unusable serverDate is ignored (red team F4): the local clock reads expiresAt.
      [
        { token: 't', expiresAt: Date.now() - 1, serverDate: 'x' },
        /expiresAt is not in the future/,
      ],
    ];
    for (const [minted, message] of cases) {
      const manager = new ConversationTokenManager({ mint: async () => minted });
      await expect(manager.getToken()).rejects.toThrow(message);
    }
  });

  it('reads a mint whose serverDate is unparseable as one without serverDate', async () => {
    const minted = { token: 't', expiresAt: Date.now() + MINUTE, serverDate: 'x' };
    const manager = new ConversationTokenManager({ mint: async () => minted });
    expect(await manager.getToken()).toBe('t');
  });

  it('keeps serving the current token while a refresh fails, but never past its expiry', async () => {
    let fail = false;
    let mints = 0;
    jitter(0);
    const manager = new ConversationTokenManager({
      mint: async () => {
        mints += 1;
        if (fail) throw new Error('down');
        return { token: `tok_${mints}`, expiresAt: Date.now() + 30 * MINUTE };
      },
    });
    expect(await manager.getToken()).toBe('tok_1');
    fail = true;
    await vi.advanceTimersByTimeAsync(29 * MINUTE + 1);
    expect(await manager.getToken()).toBe('tok_1');
    await vi.advanceTimersByTimeAsync(MINUTE);
    const call = manager.getToken().catch((error: unknown) => error);
    await vi.runAllTimersAsync();
    expect(await call).toBeInstanceOf(TokenMintError);
  });

  it('during the backoff after a failed refresh, hands out the current token without waiting', async () => {
    let fail = false;
    let mints = 0;
    jitter(1); // a full 1 s backoff after the first failure
    const manager = new ConversationTokenManager({
      mint: async () => {
        mints += 1;
        if (fail) throw new Error('down');
        return { token: `tok_${mints}`, expiresAt: Date.now() + 30 * MINUTE };
      },
    });
    await manager.getToken();
    fail = true;
    await vi.advanceTimersByTimeAsync(29 * MINUTE + 1);
    expect(await manager.getToken()).toBe('tok_1'); // the refresh failed: fallback
    let handedOut: string | undefined;
    void manager.getToken().then((token) => {
      handedOut = token;
    });
    // No time passes: a call that waited out the backoff would still be pending.
    await vi.advanceTimersByTimeAsync(0);
    expect(handedOut).toBe('tok_1');
    expect(mints).toBe(2);
    await vi.advanceTimersByTimeAsync(1_000);
    fail = false;
    expect(await manager.getToken()).toBe('tok_3'); // backoff over: refreshed
  });

  it('aborts a mint that exceeds mintTimeoutMs', async () => {
    const manager = new ConversationTokenManager({
      mintTimeoutMs: 1_000,
      mint: () => new Promise<MintedToken>(() => undefined),
    });
    const call = manager.getToken().catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(1_000);
    const error = await call;
    expect(error).toBeInstanceOf(TokenMintError);
    expect((error as Error).message).toMatch(/timed out after 1000 ms/);
  });

  it('a caller can stop waiting without cancelling the shared mint', async () => {
    let mints = 0;
    const manager = new ConversationTokenManager({
      mint: async () => {
        mints += 1;
        await new Promise((resolve) => setTimeout(resolve, 100));
        return { token: 'tok', expiresAt: Date.now() + MINUTE * 30 };
      },
    });
    const controller = new AbortController();
    const impatient = manager.getToken({ signal: controller.signal });
    const patient = manager.getToken();
    controller.abort(new Error('shopper left'));
    await expect(impatient).rejects.toThrow('shopper left');
    await vi.advanceTimersByTimeAsync(100);
    await expect(patient).resolves.toBe('tok');
    expect(mints).toBe(1);
  });

  it('close() aborts a running mint and refuses later calls', async () => {
    let mintSignal: AbortSignal | undefined;
    const manager = new ConversationTokenManager({
      mint: ({ signal }) => {
        mintSignal = signal;
        return new Promise<MintedToken>(() => undefined);
      },
    });
    const pending = manager.getToken().catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(0);
    manager.close();
    expect(mintSignal?.aborted).toBe(true);
    expect(await pending).toBeInstanceOf(AbortError);
    await expect(manager.getToken()).rejects.toBeInstanceOf(AbortError);
  });

  it('rejects bad options with a ConfigurationError naming the option', () => {
    expect(() => new ConversationTokenManager({ mint: undefined as never })).toThrow(
      ConfigurationError,
    );
    expect(
      () =>
        new ConversationTokenManager({
          mint: async () => ({ token: 't', expiresAt: 0 }),
          refreshMarginMs: -1,
        }),
    ).toThrow(/refreshMarginMs/);
    const mint = async () => ({ token: 't', expiresAt: Date.now() + 60_000 });
    expect(() => new ConversationTokenManager({ mint, store: new MemoryCatalogStore() })).toThrow(
      /option key is required with a store/,
    );
  });
});

describe('ConversationTokenManager clock skew', () => {
  const TOKEN_MS = 30 * MINUTE;

  it.each([
    { label: 'client clock 10 minutes behind', serverOffsetMs: 10 * MINUTE },
    { label: 'client clock 10 minutes ahead', serverOffsetMs: -10 * MINUTE },
  ])('$label: refreshes by the server clock from the Date header', async ({ serverOffsetMs }) => {
    const authority = tokenAuthority({ ttlMs: TOKEN_MS, serverOffsetMs, sendDate: true });
    const manager = new ConversationTokenManager({ mint: authority.mint, refreshMarginMs: MINUTE });
    await simulateChat(manager, authority.use, 2 * HOUR, 5_000);
    expect(authority.expiredUses).toBe(0);
    // Without the skew correction: 10 minutes behind uses expired tokens; ahead mints
    // every 19 minutes (7 mints instead of 5).
    expect(authority.mints).toBe(Math.ceil((2 * HOUR) / (TOKEN_MS - MINUTE)));
  });

  it('without a server date, trusts the local clock (documented limitation)', async () => {
    const authority = tokenAuthority({ ttlMs: TOKEN_MS, serverOffsetMs: 10 * MINUTE });
    const manager = new ConversationTokenManager({ mint: authority.mint });
    await simulateChat(manager, authority.use, HOUR, 5_000);
    expect(authority.expiredUses).toBeGreaterThan(0);
  });
});
