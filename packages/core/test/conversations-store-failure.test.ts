import { describe, expect, it } from 'vitest';
import {
  type CatalogStore,
  ConversationTokenManager,
  MemoryCatalogStore,
} from '../src/conversations/index.js';
import { StoreUnavailableError, TokenMintError } from '../src/errors/index.js';

// A store that fails while a token is minted surfaces as one error type, StoreUnavailableError
// naming the store, whichever store operation failed and whatever the driver threw (the
// multi-process suite's "redis-server killed and restarted mid-run" depends on it).

type Operation = 'get' | 'lock' | 'set';

/** A memory store whose `failing` operation throws `thrown` (a driver's own error). */
function failingStore(failing: Operation, thrown: unknown): CatalogStore {
  const inner = new MemoryCatalogStore();
  const fail = () => Promise.reject(thrown);
  return {
    name: 'flaky store',
    get: (key) => (failing === 'get' ? fail() : inner.get(key)),
    set: (key, value, ttlMs) => (failing === 'set' ? fail() : inner.set(key, value, ttlMs)),
    setIfAbsent: (key, value, ttlMs) => inner.setIfAbsent(key, value, ttlMs),
    delete: (key) => inner.delete(key),
    deleteIfEquals: (key, value) => inner.deleteIfEquals(key, value),
    lock: (key, options) => (failing === 'lock' ? fail() : inner.lock(key, options)),
  };
}

/** What ioredis throws when the server went away, by its own names. */
function driverError(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

const thrownByDrivers: [string, unknown][] = [
  [
    'MaxRetriesPerRequestError',
    driverError('MaxRetriesPerRequestError', 'Reached the max retries per request limit'),
  ],
  ['a stream that is not writeable', driverError('Error', "Stream isn't writeable")],
  [
    'a StoreUnavailableError of the store itself',
    new StoreUnavailableError('flaky store', 'GET failed'),
  ],
  ['a string', 'ECONNRESET'],
];

describe('a store failing while a token is minted', () => {
  for (const operation of ['get', 'lock', 'set'] as const) {
    it.each(thrownByDrivers)(
      `${operation}: %s is a StoreUnavailableError naming the store`,
      async (_name, thrown) => {
        let mints = 0;
        const manager = new ConversationTokenManager({
          key: 'session:token',
          store: failingStore(operation, thrown),
          mint: async () => {
            mints += 1;
            return { token: `tok_${mints}`, expiresAt: Date.now() + 60_000 };
          },
        });
        const error = await manager.getToken().catch((caught: unknown) => caught);
        manager.close();
        expect(error).toBeInstanceOf(StoreUnavailableError);
        expect(error).not.toBeInstanceOf(TokenMintError);
        expect((error as StoreUnavailableError).store).toBe('flaky store');
        expect((error as StoreUnavailableError).message).toContain('flaky store');
        // Writing back failed after the mint: the token was minted, never handed out.
        expect(mints).toBe(operation === 'set' ? 1 : 0);
      },
    );
  }

  it('the store read inside the mint (the client’s own) is the same StoreUnavailableError', async () => {
    const fromClient = new StoreUnavailableError('redis (ioredis)', 'GET failed: no answer');
    const manager = new ConversationTokenManager({
      mint: () => Promise.reject(fromClient),
    });
    const error = await manager.getToken().catch((caught: unknown) => caught);
    manager.close();
    expect(error).toBe(fromClient);
  });

  it('a failing mint function is still a TokenMintError', async () => {
    const manager = new ConversationTokenManager({
      mint: () => Promise.reject(new Error('token service unavailable')),
    });
    const error = await manager.getToken().catch((caught: unknown) => caught);
    manager.close();
    expect(error).toBeInstanceOf(TokenMintError);
  });
});
