import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CollectionUpdate, NewClause } from '../src/schemas/index.js';
import type { CatalogStore } from '../src/store/catalog-store.js';
import { MemoryCatalogStore } from '../src/store/memory-store.js';
import { addedSelectors, CollectionGuard } from '../src/tools/built-in/collection-guard.js';

/** A store that counts every call it gets (the update's store cost). */
function countingStore(): { store: CatalogStore; calls: string[] } {
  const inner = new MemoryCatalogStore();
  const calls: string[] = [];
  const store: CatalogStore = {
    get: (key) => {
      calls.push('get');
      return inner.get(key);
    },
    set: (key, value, ttl) => {
      calls.push('set');
      return inner.set(key, value, ttl);
    },
    setIfAbsent: (key, value, ttl) => {
      calls.push('setIfAbsent');
      return inner.setIfAbsent(key, value, ttl);
    },
    delete: (key) => {
      calls.push('delete');
      return inner.delete(key);
    },
    lock: (key, options) => {
      calls.push('lock');
      return inner.lock(key, options);
    },
  };
  return { store, calls };
}

const clause = (ids: Partial<NewClause>): NewClause => ({
  brand_ids: [],
  website_ids: [],
  category_ids: [],
  product_ids: [],
  ...ids,
});

describe('CollectionGuard', () => {
  it('costs 2 store operations when the outcome is known, 3 when refused', async () => {
    const { store, calls } = countingStore();
    const guard = new CollectionGuard(store);
    const update = { add_clauses: [clause({ product_ids: ['A'] })] };
    const first = await guard.begin('s', 'c1', update);
    if (!first.send) throw new Error('refused');
    await first.settle(true);
    expect(calls).toEqual(['setIfAbsent', 'delete']);
    calls.length = 0;
    const unknown = await guard.begin('s', 'c1', update);
    if (!unknown.send) throw new Error('refused');
    await unknown.settle(false);
    const repeat = await guard.begin('s', 'c1', update);
    expect(repeat.send).toBe(false);
    expect(calls).toEqual(['setIfAbsent', 'setIfAbsent', 'get']);
  });

  it('refuses the three repeat shapes after an unknown outcome; lets safe changes through', async () => {
    const shapes: [CollectionUpdate, CollectionUpdate][] = [
      [
        { add_clauses: [clause({ product_ids: ['A', 'B'] })] },
        { add_clauses: [clause({ product_ids: ['B'] })] },
      ],
      [
        { name: 'x', add_clauses: [clause({ brand_ids: ['b'] })] },
        { add_clauses: [clause({ brand_ids: ['b'] })] },
      ],
      [
        { add_clauses: [clause({ product_ids: ['A'] }), clause({ product_ids: ['B'] })] },
        { add_clauses: [clause({ product_ids: ['A'] })] },
      ],
    ];
    for (const [first, repeat] of shapes) {
      const guard = new CollectionGuard(new MemoryCatalogStore());
      const sent = await guard.begin('s', 'c', first);
      if (!sent.send) throw new Error('refused');
      await sent.settle(false);
      const again = await guard.begin('s', 'c', repeat);
      expect(again.send).toBe(false);
      if (!again.send) expect(again.refusal.message).toMatch(/unknown outcome/);
      expect(
        (await guard.begin('s', 'c', { name: 'renamed', remove_clause_ids: ['k'] })).send,
      ).toBe(true);
    }
  });

  it('refuses any rewriting of an unknown add (property)', async () => {
    const ids = fc.uniqueArray(fc.constantFrom('A', 'B', 'C', 'D'), { minLength: 1 });
    await fc.assert(
      fc.asyncProperty(ids, fc.nat(), async (adds, cut) => {
        const guard = new CollectionGuard(new MemoryCatalogStore());
        const sent = await guard.begin('s', 'c', { add_clauses: [clause({ product_ids: adds })] });
        if (!sent.send) return false;
        await sent.settle(false);
        const split = adds.slice(cut % adds.length).map((id) => clause({ product_ids: [id] }));
        return !(await guard.begin('s', 'c', { add_clauses: split.reverse() })).send;
      }),
    );
  });

  it('clears the record when an answer shows the unknown add landed', async () => {
    const guard = new CollectionGuard(new MemoryCatalogStore());
    const update = { add_clauses: [clause({ product_ids: ['A'] })] };
    const sent = await guard.begin('s', 'c', update);
    if (!sent.send) throw new Error('refused');
    await sent.settle(false);
    await guard.learn('s', 'c', [{ clause_id: 'k1', ...clause({ product_ids: ['A'] }) }]);
    expect((await guard.begin('s', 'c', update)).send).toBe(true);
    expect(addedSelectors(update)).toEqual(['product_ids:A']);
  });
});
