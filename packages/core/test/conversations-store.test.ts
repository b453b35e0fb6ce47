import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ChatSession,
  ConversationTokenManager,
  MemoryCatalogStore,
} from '../src/conversations/index.js';
import { SessionLockTimeoutError } from '../src/errors/index.js';
import { TimeoutError } from '../src/index.js';

const LOCK = { leaseMs: 1_000, waitMs: 5_000 };

describe('MemoryCatalogStore', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: Date.UTC(2025, 0, 1) });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps an entry for its TTL and reports the remaining life', async () => {
    const store = new MemoryCatalogStore();
    await store.set('k', 'v', 1_000);
    await vi.advanceTimersByTimeAsync(400);
    expect(await store.get('k')).toEqual({ value: 'v', ttlMs: 600 });
    await vi.advanceTimersByTimeAsync(600);
    expect(await store.get('k')).toBeUndefined();
  });

  it('keeps an entry without TTL, and deletes on request', async () => {
    const store = new MemoryCatalogStore();
    await store.set('k', 'v');
    expect(await store.get('k')).toEqual({ value: 'v', ttlMs: undefined });
    await store.delete('k');
    expect(await store.get('k')).toBeUndefined();
  });

  it('the lock is exclusive: a second taker waits until the first releases (polled, 10 ms)', async () => {
    const store = new MemoryCatalogStore();
    const release = await store.lock('k', LOCK);
    let second = false;
    const waiting = store.lock('k', LOCK).then((r) => {
      second = true;
      return r;
    });
    await vi.advanceTimersByTimeAsync(500);
    expect(second).toBe(false);
    await release();
    await vi.advanceTimersByTimeAsync(10);
    expect(second).toBe(true);
    await (await waiting)();
  });

  it('a crashed holder loses the lock when its lease ends; its late release frees nothing', async () => {
    const store = new MemoryCatalogStore();
    const crashed = await store.lock('k', LOCK);
    const next = store.lock('k', LOCK);
    await vi.advanceTimersByTimeAsync(1_000);
    const releaseNext = await next;
    await crashed(); // must not free the new holder's lock
    const third = store.lock('k', { leaseMs: 1_000, waitMs: 500 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(500);
    expect(await third).toBeInstanceOf(SessionLockTimeoutError);
    await releaseNext();
  });

  it('gives up after waitMs with SessionLockTimeoutError naming the key', async () => {
    const store = new MemoryCatalogStore();
    await store.lock('chat:1', { leaseMs: 60_000, waitMs: 1 });
    const error = store.lock('chat:1', { leaseMs: 60_000, waitMs: 2_000 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(String(await error)).toMatch(/chat:1.*2000 ms/);
  });

  it('stops waiting when the signal aborts', async () => {
    const store = new MemoryCatalogStore();
    await store.lock('k', LOCK);
    const controller = new AbortController();
    const waiting = store.lock('k', { ...LOCK, signal: controller.signal });
    controller.abort(new Error('gone'));
    await expect(waiting).rejects.toThrow('gone');
  });

  it('two token managers sharing one store mint once for the session', async () => {
    const store = new MemoryCatalogStore();
    let mints = 0;
    const mint = async () => {
      mints += 1;
      await new Promise((resolve) => setTimeout(resolve, 200));
      return { token: `tok_${mints}`, expiresAt: Date.now() + 30 * 60_000 };
    };
    const managers = [1, 2, 3].map(
      () => new ConversationTokenManager({ mint, store, key: 'chat:1' }),
    );
    const calls = managers.map((manager) => manager.getToken());
    await vi.advanceTimersByTimeAsync(200);
    expect(new Set(await Promise.all(calls))).toEqual(new Set(['tok_1']));
    expect(mints).toBe(1);
  });

  it('a mint slower than a second but within mintTimeoutMs still holds the lock throughout', async () => {
    const store = new MemoryCatalogStore();
    let mints = 0;
    const mint = async () => {
      mints += 1;
      await new Promise((resolve) => setTimeout(resolve, 10_000));
      return { token: `tok_${mints}`, expiresAt: Date.now() + 30 * 60_000 };
    };
    // The lease is mintTimeoutMs + 1 s: the other instance cannot take the lock mid-mint.
    const managers = [1, 2].map(
      () => new ConversationTokenManager({ mint, store, key: 'chat:slow', mintTimeoutMs: 12_000 }),
    );
    const calls = managers.map((manager) => manager.getToken());
    await vi.advanceTimersByTimeAsync(10_000);
    expect(new Set(await Promise.all(calls))).toEqual(new Set(['tok_1']));
    expect(mints).toBe(1);
  });

  it('a hanging conversation create is aborted before the lock lease ends: never two at once', async () => {
    const store = new MemoryCatalogStore();
    const creates = { running: 0, most: 0, total: 0 };
    // The first answers after 40 s (longer than the 30 s lease), later ones after 1 s,
    // unless the signal aborts them first.
    const createConversation = ({ signal }: { signal: AbortSignal }) =>
      new Promise<object>((resolve, reject) => {
        creates.total += 1;
        creates.most = Math.max(creates.most, ++creates.running);
        const done = setTimeout(
          () => {
            creates.running -= 1;
            resolve({ conversation_id: `conv_${creates.total}` });
          },
          creates.total === 1 ? 40_000 : 1_000,
        );
        signal.addEventListener('abort', () => {
          clearTimeout(done);
          creates.running -= 1;
          reject(signal.reason);
        });
      });
    const session = () =>
      new ChatSession({
        sessionId: 'chat:hang',
        store,
        createConversation,
        mintToken: async () => ({ token: 't', expiresAt: Date.now() + 30 * 60_000 }),
        sendTurn: async () => ({}),
      });
    const first = session()
      .conversationId()
      .catch((error: unknown) => error);
    const second = session().conversationId();
    await vi.advanceTimersByTimeAsync(25_000);
    expect(await first).toBeInstanceOf(TimeoutError);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await second).toBe('conv_2');
    expect(creates).toEqual({ running: 0, most: 1, total: 2 });
  });

  it('a token read from the store keeps its full-life refresh margin', async () => {
    const store = new MemoryCatalogStore();
    let mints = 0;
    // 60-second tokens: the margin is capped at 30 s, also for the instance that only reads it.
    const mint = async () => ({ token: `tok_${++mints}`, expiresAt: Date.now() + 60_000 });
    const writer = new ConversationTokenManager({ mint, store, key: 'k' });
    const reader = new ConversationTokenManager({ mint, store, key: 'k' });
    await writer.getToken();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(await reader.getToken()).toBe('tok_1');
    expect(mints).toBe(1);
  });
});
