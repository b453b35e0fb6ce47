import fc from 'fast-check';
import { expect, it } from 'vitest';
import { MemoryCatalogStore } from '../src/store/memory-store.js';

it('memory store vs a model: claims live until expiry, nothing expired is read', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 6 }),
      fc.array(
        fc.record({
          op: fc.constantFrom('get', 'set', 'setIfAbsent', 'delete', 'deleteIfEquals', 'tick'),
          key: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'),
          value: fc.constantFrom('1', '2'),
          ttl: fc.option(fc.integer({ min: -2, max: 50 }), { nil: undefined }),
          dt: fc.integer({ min: 0, max: 30 }),
        }),
        { maxLength: 80 },
      ),
      async (max, ops) => {
        let now = 0;
        const store = new MemoryCatalogStore({ maxEntries: max, now: () => now });
        // model of claims only: key -> {value, expiresAt}
        const claims = new Map<string, { value: string; exp: number | undefined }>();
        const written = new Map<string, { value: string; exp: number | undefined }>();
        const live = (e?: { exp: number | undefined }) => e && (e.exp === undefined || e.exp > now);
        for (const { op, key, value, ttl, dt } of ops) {
          if (op === 'tick') {
            now += dt;
            continue;
          }
          if (op === 'get') {
            const got = await store.get(key);
            const w = written.get(key);
            if (got) {
              expect(live(w)).toBe(true);
              expect(got.value).toBe(w?.value);
              if (got.ttlMs !== undefined) expect(got.ttlMs).toBeGreaterThan(0);
            }
            if (live(claims.get(key))) expect(got?.value).toBe(claims.get(key)?.value);
          } else if (op === 'set') {
            const wasClaim = live(claims.get(key));
            try {
              await store.set(key, value, ttl);
            } catch {
              continue;
            }
            const e = { value, exp: ttl === undefined ? undefined : now + ttl };
            if (ttl !== undefined && ttl <= 0) {
              written.delete(key);
              claims.delete(key);
              continue;
            }
            written.set(key, e);
            if (wasClaim) claims.set(key, e);
            else claims.delete(key);
          } else if (op === 'setIfAbsent') {
            let won: boolean;
            try {
              won = await store.setIfAbsent(key, value, ttl);
            } catch {
              continue;
            }
            if (live(claims.get(key))) expect(won).toBe(false);
            if (won && !(ttl !== undefined && ttl <= 0)) {
              const e = { value, exp: ttl === undefined ? undefined : now + ttl };
              written.set(key, e);
              claims.set(key, e);
            }
          } else if (op === 'delete') {
            await store.delete(key);
            written.delete(key);
            claims.delete(key);
          } else {
            const removed = await store.deleteIfEquals(key, value);
            if (removed) {
              expect(written.get(key)?.value).toBe(value);
              written.delete(key);
              claims.delete(key);
            } else if (live(claims.get(key)) && claims.get(key)?.value === value)
              throw new Error('claim not deleted');
          }
        }
      },
    ),
    { numRuns: 3000 },
  );
});

it('setIfAbsent at once from many callers: one winner', async () => {
  const store = new MemoryCatalogStore({ maxEntries: 2 });
  for (let i = 0; i < 200; i++) {
    const wins = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        store.setIfAbsent(`k${i}`, String(n), 10_000).catch(() => false),
      ),
    );
    expect(wins.filter(Boolean).length).toBeLessThanOrEqual(1);
  }
});

it('lock: many waiters, never two holders', async () => {
  const store = new MemoryCatalogStore();
  let holders = 0;
  let max = 0;
  await Promise.all(
    Array.from({ length: 30 }, async () => {
      const release = await store.lock('k', { leaseMs: 5_000, waitMs: 10_000 });
      holders++;
      max = Math.max(max, holders);
      await new Promise((r) => setTimeout(r, Math.random() * 5));
      holders--;
      await release();
    }),
  );
  expect(max).toBe(1);
});
