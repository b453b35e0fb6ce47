import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryCatalogStore } from '../src/conversations/index.js';
import { ConfigurationError } from '../src/index.js';

beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2025, 0, 1) });
});
afterEach(() => {
  vi.useRealTimers();
});

async function keysPresent(store: MemoryCatalogStore, keys: string[]): Promise<string[]> {
  const present: string[] = [];
  for (const key of keys) if (await store.get(key)) present.push(key);
  return present;
}

describe('MemoryCatalogStore bounds', () => {
  it('evicts the least recently used entry past maxEntries; a read counts as a use', async () => {
    const store = new MemoryCatalogStore({ maxEntries: 3 });
    await store.set('a', '1', 60_000);
    await store.set('b', '2');
    await store.set('c', '3', 60_000);
    await store.get('a');
    await store.set('d', '4');
    expect(store.size).toBe(3);
    expect(await store.get('b')).toBeUndefined();
    expect(await keysPresent(store, ['a', 'c', 'd'])).toEqual(['a', 'c', 'd']);
  });

  it('a rewrite counts as a use too', async () => {
    const store = new MemoryCatalogStore({ maxEntries: 2 });
    await store.set('a', '1');
    await store.set('b', '2');
    await store.set('a', '1 again');
    await store.set('c', '3');
    expect(await keysPresent(store, ['a', 'b', 'c'])).toEqual(['a', 'c']);
  });

  it('100,000 sessions written without a TTL stay within the default bound of 10,000', async () => {
    const store = new MemoryCatalogStore();
    for (let index = 0; index < 100_000; index++) await store.set(`session:${index}`, 'token');
    expect(store.size).toBe(10_000);
    expect(await store.get('session:99999')).toEqual({ value: 'token', ttlMs: undefined });
    expect(await store.get('session:0')).toBeUndefined();
  });

  it('expired entries are swept by reads alone, not only by writes', async () => {
    const store = new MemoryCatalogStore();
    for (let index = 0; index < 500; index++) await store.set(`old:${index}`, 't', 1_000);
    await store.set('live', 't');
    vi.advanceTimersByTime(2_000);
    expect(store.size).toBe(501);
    for (let read = 0; read < 100; read++) await store.get('live');
    expect(store.size).toBe(1);
  });

  it('an expired entry read is removed at once', async () => {
    const store = new MemoryCatalogStore();
    await store.set('k', 'v', 1_000);
    vi.advanceTimersByTime(1_000);
    expect(await store.get('k')).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it('writing a TTL of 0 or less removes the entry', async () => {
    const store = new MemoryCatalogStore();
    await store.set('k', 'v');
    await store.set('k', 'v', 0);
    expect(store.size).toBe(0);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses maxEntries %s', (maxEntries) => {
    expect(() => new MemoryCatalogStore({ maxEntries })).toThrow(ConfigurationError);
  });
});
