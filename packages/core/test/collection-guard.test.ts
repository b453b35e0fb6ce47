import type { ServerResponse } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RepeatedUpdateError } from '../src/errors/index.js';
import { SELECTOR_KEYS } from '../src/schemas/collections.js';
import type { Clause, NewClause } from '../src/schemas/index.js';
import type { CatalogStore } from '../src/store/catalog-store.js';
import { MemoryCatalogStore } from '../src/store/memory-store.js';
import { type AnyCatalogTool, createCatalogToolList } from '../src/tools/index.js';
import { TEST_KEY } from './support/fixtures.js';
import {
  type ReceivedRequest,
  sendJson,
  startTestServer,
  type TestServer,
} from './support/test-server.js';

/*
 * The write-ahead collection guard, through the real tool and client, against a misbehaving
 * loopback service that applies every PATCH and then, while `drop` holds, drops the
 * connection before answering: the outcome is unknown although the change is in place.
 * "Applied twice" is counted at the service: two clauses selecting the same id.
 */

let service: TestServer;
let drop = false;
const collections = new Map<string, Clause[]>();
let nextClause = 0;

function apply(request: ReceivedRequest, response: ServerResponse): void {
  const id = decodeURIComponent(request.url.split('/').pop() ?? '');
  const body = JSON.parse(request.body) as {
    name?: string;
    add_clauses?: NewClause[];
    replace_clauses?: Clause[];
    remove_clause_ids?: string[];
  };
  const removed = new Set(body.remove_clause_ids ?? []);
  const replaced = new Map((body.replace_clauses ?? []).map((c) => [c.clause_id, c]));
  const clauses = (collections.get(id) ?? [])
    .filter((c) => !removed.has(c.clause_id))
    .map((c) => replaced.get(c.clause_id) ?? c);
  for (const clause of body.add_clauses ?? [])
    clauses.push({ clause_id: `cl_${nextClause++}`, ...clause });
  collections.set(id, clauses);
  if (drop) {
    response.socket?.destroy();
    return;
  }
  sendJson(response, 200, { collection_id: id, name: body.name ?? id, clauses });
}

/** Selectors (`kind:id`) held by more than one clause of any collection: adds applied twice. */
function appliedTwice(): string[] {
  const twice: string[] = [];
  for (const clauses of collections.values()) {
    const seen = new Set<string>();
    for (const clause of clauses) {
      for (const key of SELECTOR_KEYS) {
        for (const id of clause[key]) {
          if (seen.has(`${key}:${id}`)) twice.push(`${key}:${id}`);
          seen.add(`${key}:${id}`);
        }
      }
    }
  }
  return twice;
}

const patches = () => service.requests.filter((r) => r.method === 'PATCH').length;

beforeAll(async () => {
  service = await startTestServer(apply);
});
afterAll(() => service.close());
beforeEach(() => {
  drop = false;
  service.requests.length = 0;
  collections.clear();
});

const clause = (ids: Partial<NewClause>): NewClause => ({
  brand_ids: [],
  website_ids: [],
  category_ids: [],
  product_ids: [],
  ...ids,
});

/** The model's input: only the given fields (the others `null`, as a strict model sends). */
function input(collection_id: string, fields: Record<string, unknown>): Record<string, unknown> {
  return {
    collection_id,
    name: null,
    description: null,
    add_clauses: null,
    replace_clauses: null,
    remove_clause_ids: null,
    ...fields,
  };
}

function updateTool(store: CatalogStore = new MemoryCatalogStore()): AnyCatalogTool {
  const [tool] = createCatalogToolList({
    clientOptions: { apiKey: TEST_KEY, baseUrl: service.origin, timeoutMs: 2_000, store },
    include: ['update_collection'],
  }) as AnyCatalogTool[];
  if (tool === undefined) throw new Error('no update_collection tool');
  return tool;
}

/** What the model reads: the output's text, or the failure's. */
async function modelText(tool: AnyCatalogTool, args: Record<string, unknown>): Promise<string> {
  try {
    return tool.toModelOutput((await tool.execute(args as never)) as never);
  } catch (error) {
    return tool.errorToModelOutput(error) ?? `rethrown: ${String(error)}`;
  }
}

/** A store that counts the operations it gets, each as `operation kind` (`get guard`). */
function countingStore(inner: CatalogStore = new MemoryCatalogStore()) {
  const calls: string[] = [];
  const seen = <T>(operation: string, key: string, run: () => Promise<T>): Promise<T> => {
    calls.push(`${operation} ${key.split(':')[1]}`);
    return run();
  };
  const store: CatalogStore = {
    get: (key) => seen('get', key, () => inner.get(key)),
    set: (key, value, ttl) => seen('set', key, () => inner.set(key, value, ttl)),
    setIfAbsent: (key, value, ttl) =>
      seen('setIfAbsent', key, () => inner.setIfAbsent(key, value, ttl)),
    delete: (key) => seen('delete', key, () => inner.delete(key)),
    deleteIfEquals: (key, value) =>
      seen('deleteIfEquals', key, () => inner.deleteIfEquals(key, value)),
    lock: (key, options) => seen('lock', key, () => inner.lock(key, options)),
  };
  return { store, calls };
}

/** The three repeat shapes of issue 33: a first change, then its repeats said another way. */
const SHAPES: [string, Record<string, unknown>, Record<string, unknown>[]][] = [
  [
    'one clause of two ids, repeated as two one-id clauses',
    { add_clauses: [clause({ product_ids: ['A', 'B'] })] },
    [{ add_clauses: [clause({ product_ids: ['A'] }), clause({ product_ids: ['B'] })] }],
  ],
  [
    'a rename plus an add, repeated as the add alone',
    { name: 'Summer', add_clauses: [clause({ brand_ids: ['b1'] })] },
    [{ add_clauses: [clause({ brand_ids: ['b1'] })] }],
  ],
  [
    'an add of A and B, repeated as two calls',
    { add_clauses: [clause({ product_ids: ['A', 'B'] })] },
    [
      { add_clauses: [clause({ product_ids: ['A'] })] },
      { add_clauses: [clause({ product_ids: ['B'] })] },
    ],
  ],
];

describe('update_collection after an unknown outcome (one process)', () => {
  it.each(SHAPES)('%s: never sent again, 0 applied twice', async (_name, first, repeats) => {
    const tool = updateTool();
    drop = true;
    expect(await modelText(tool, input('col', first))).toMatch(/outcome is unknown/);
    drop = false;
    for (const repeat of repeats) {
      const text = await modelText(tool, input('col', repeat));
      expect(text).toMatch(/^Not sent: .*unknown outcome.*ask them to check the collection/);
    }
    expect(patches()).toBe(1);
    expect(appliedTwice()).toEqual([]);
    // Safe to repeat: a rename, a description, a removal.
    for (const safe of [
      { name: 'Renamed' },
      { description: 'd' },
      { remove_clause_ids: ['cl_none'] },
    ]) {
      expect(await modelText(tool, input('col', safe))).toMatch(/^Updated collection/);
    }
  });

  it('any rewriting of the same adds, split, merged, reordered, with other fields, in one or more calls: 0 applied twice (property)', async () => {
    const ids = fc.uniqueArray(
      fc.tuple(fc.constantFrom(...SELECTOR_KEYS), fc.constantFrom('a', 'b', 'c', 'd')),
      { minLength: 1, maxLength: 6, selector: ([key, id]) => `${key}:${id}` },
    );
    const cut = (ids: [string, string][], groups: number[]) =>
      Array.from(new Set(groups), (group) =>
        ids.filter((_, i) => groups[i % groups.length] === group),
      ).filter((part) => part.length > 0);
    const toClause = (part: [string, string][]) =>
      clause(
        Object.fromEntries(
          SELECTOR_KEYS.map((key) => [key, part.filter(([k]) => k === key).map(([, id]) => id)]),
        ),
      );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        ids,
        fc.array(fc.nat(3), { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(3), { minLength: 1, maxLength: 6 }),
        fc.option(fc.constantFrom({ name: 'n' }, { description: 'd' })),
        async (adds, clauseCut, callCut, extra) => {
          const collectionId = `prop_${run++}`;
          const tool = updateTool();
          drop = true;
          await modelText(tool, input(collectionId, { add_clauses: [toClause(adds)] }));
          drop = false;
          const sent = patches();
          // The same adds, cut into calls, each cut into clauses, in reverse order.
          for (const call of cut(adds, callCut).reverse()) {
            const clauses = cut(call, clauseCut).map(toClause).reverse();
            await modelText(tool, input(collectionId, { ...extra, add_clauses: clauses }));
          }
          return patches() === sent && appliedTwice().length === 0;
        },
      ),
      { numRuns: 60 },
    );
  });

  it('an answer without the adds clears nothing: the record stays', async () => {
    const tool = updateTool();
    drop = true;
    await modelText(tool, input('col', { add_clauses: [clause({ product_ids: ['A'] })] }));
    collections.set('col', []); // as if the add had not arrived yet
    drop = false;
    await modelText(tool, input('col', { name: 'Seen' }));
    expect(
      await modelText(tool, input('col', { add_clauses: [clause({ product_ids: ['A'] })] })),
    ).toMatch(/^Not sent/);
  });

  it('the record outlives a wall clock stepped +1 h and a flood of other collections, and expires after 10 minutes of store time', async () => {
    let now = Date.UTC(2026, 0, 1);
    const store = new MemoryCatalogStore({ now: () => now });
    const tool = updateTool(store);
    drop = true;
    await modelText(tool, input('col', { add_clauses: [clause({ product_ids: ['A'] })] }));
    drop = false;
    vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2026, 0, 1, 1) });
    try {
      for (let i = 0; i < 150; i++) {
        await modelText(
          tool,
          input(`other_${i}`, { add_clauses: [clause({ product_ids: ['A'] })] }),
        );
      }
      const again = input('col', { add_clauses: [clause({ product_ids: ['A'] })] });
      expect(await modelText(tool, again)).toMatch(/^Not sent/);
      now += 600_000 + 1;
      expect(await modelText(tool, again)).toMatch(/^Updated collection/);
    } finally {
      vi.useRealTimers();
    }
  });

  it('one writer per collection: an add while another is out is refused, nothing sent', async () => {
    const store = new MemoryCatalogStore();
    let release = () => {};
    service.handle((request, response) => {
      release = () => apply(request, response);
    });
    try {
      const slow = updateTool(store).execute(
        input('col', { add_clauses: [clause({ product_ids: ['A'] })] }) as never,
      );
      await vi.waitFor(() => expect(patches()).toBe(1));
      const other = await modelText(
        updateTool(store),
        input('col', { add_clauses: [clause({ product_ids: ['B'] })] }),
      );
      expect(other).toMatch(
        /^Not sent: .*only one change adding or replacing clauses of a collection is sent at a time/,
      );
      release();
      await slow;
    } finally {
      service.handle(apply);
    }
    expect(patches()).toBe(1);
  });
});

describe('the store', () => {
  it('an update costs at most 2 store operations of the guard (counted)', async () => {
    const { store, calls } = countingStore();
    const tool = updateTool(store);
    const cost = async (fields: Record<string, unknown>) => {
      calls.length = 0;
      await modelText(tool, input('col', fields));
      return [...calls];
    };
    const add = { add_clauses: [clause({ product_ids: ['A'] })] };
    const costs = {
      add: await cost(add),
      rename: await cost({ name: 'n' }),
      lostAdd: await (async () => {
        drop = true;
        const c = await cost({ add_clauses: [clause({ product_ids: ['B'] })] });
        drop = false;
        return c;
      })(),
      refused: await cost({ add_clauses: [clause({ product_ids: ['B'] })] }),
      renameAfterLost: await cost({ name: 'm' }),
    };
    expect(costs).toEqual({
      // The client's read of a shared rate-limit pause is counted too.
      add: ['setIfAbsent guard', 'get rate-limit', 'deleteIfEquals guard'],
      rename: ['get rate-limit'],
      lostAdd: ['setIfAbsent guard', 'get rate-limit'],
      refused: ['setIfAbsent guard', 'get guard'],
      renameAfterLost: ['get rate-limit'],
    });
    for (const each of Object.values(costs)) expect(each.length).toBeLessThanOrEqual(3);
    console.info(
      `update store operations: ${Object.entries(costs)
        .map(([name, ops]) => `${name} ${ops.length}`)
        .join(', ')}`,
    );
  });

  it('a store failing after sending never fails the answered call (the record is left to expire)', async () => {
    const inner = new MemoryCatalogStore();
    const store: CatalogStore = {
      get: (key) => inner.get(key),
      set: (key, value, ttl) => inner.set(key, value, ttl),
      setIfAbsent: (key, value, ttl) => inner.setIfAbsent(key, value, ttl),
      delete: () => Promise.reject(new Error('store down')),
      deleteIfEquals: () => Promise.reject(new Error('store down')),
      lock: (key, options) => inner.lock(key, options),
    };
    const text = await modelText(
      updateTool(store),
      input('col', { add_clauses: [clause({ product_ids: ['A'] })] }),
    );
    expect(text).toMatch(/^Updated collection/);
  });

  it('a store failing before sending: nothing sent; a record whose write was reported failed but landed is cleared', async () => {
    const inner = new MemoryCatalogStore();
    let late = true;
    const store: CatalogStore = {
      get: (key) => inner.get(key),
      set: (key, value, ttl) => inner.set(key, value, ttl),
      async setIfAbsent(key, value, ttl) {
        if (!late) return inner.setIfAbsent(key, value, ttl);
        late = false;
        setTimeout(() => void inner.setIfAbsent(key, value, ttl), 50);
        throw new Error('no answer in time');
      },
      delete: (key) => inner.delete(key),
      deleteIfEquals: (key, value) => inner.deleteIfEquals(key, value),
      lock: (key, options) => inner.lock(key, options),
    };
    const tool = updateTool(store);
    const add = input('col', { add_clauses: [clause({ product_ids: ['A'] })] });
    expect(await modelText(tool, add)).toMatch(/shared store, so nothing was sent/);
    expect(patches()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await modelText(tool, add)).toMatch(/^Updated collection/);
    expect(appliedTwice()).toEqual([]);
  });
});

/** A collection holding one clause `cl_x` selecting `ids`, as the service would. */
function holding(collectionId: string, ...held: Partial<NewClause>[]): void {
  collections.set(
    collectionId,
    held.map((ids, i) => ({ clause_id: `cl_x${i}`, ...clause(ids) })),
  );
}

/** Clauses of `collectionId` holding every one of `ids` in `key`. */
const clausesWith = (collectionId: string, key: keyof NewClause, ids: string[]) =>
  (collections.get(collectionId) ?? []).filter((c) => ids.every((id) => c[key].includes(id)))
    .length;

describe('red team (reports/rt-guard.md)', () => {
  it('F1 a replacement re-adding an add of unknown outcome is refused, and one of unknown outcome guards adds', async () => {
    const tool = updateTool();
    holding('col', { product_ids: ['B'] });
    drop = true;
    await modelText(tool, input('col', { add_clauses: [clause({ product_ids: ['A'] })] }));
    drop = false;
    const readd = { replace_clauses: [{ clause_id: 'cl_x0', ...clause({ product_ids: ['A'] }) }] };
    const refused = await modelText(tool, input('col', readd));
    expect(refused).toMatch(/^Not sent/);
    expect(refused).not.toMatch(/replacements/);
    expect(appliedTwice()).toEqual([]);

    const other = updateTool();
    holding('col2', { product_ids: ['B'] });
    drop = true;
    await modelText(other, input('col2', readd));
    drop = false;
    expect(
      await modelText(other, input('col2', { add_clauses: [clause({ product_ids: ['A'] })] })),
    ).toMatch(/^Not sent/);
    expect(appliedTwice()).toEqual([]);
  });

  it('F1 an empty clause of unknown outcome is not sent again', async () => {
    const tool = updateTool();
    drop = true;
    await modelText(tool, input('col', { add_clauses: [clause({})] }));
    drop = false;
    expect(await modelText(tool, input('col', { add_clauses: [clause({})] }))).toMatch(/^Not sent/);
    expect(collections.get('col')).toHaveLength(1);
  });

  it('F2 an answer showing the ids in other clauses clears nothing: the repeat is refused', async () => {
    const tool = updateTool();
    holding('col', { brand_ids: ['adidas'] }, { category_ids: ['running'] });
    const add = { add_clauses: [clause({ brand_ids: ['adidas'], category_ids: ['running'] })] };
    drop = true;
    await modelText(tool, input('col', add));
    drop = false;
    expect(await modelText(tool, input('col', { name: 'Running' }))).toMatch(/^Updated/);
    expect(await modelText(tool, input('col', add))).toMatch(/^Not sent/);
    expect(clausesWith('col', 'brand_ids', ['adidas'])).toBe(2);
    expect(patches()).toBe(2);
  });

  it('F3 a late clear never removes another writer’s record (compare-and-delete)', async () => {
    let now = Date.UTC(2026, 0, 1);
    const shared = new MemoryCatalogStore({ now: () => now });
    let releaseLate = () => {};
    const late = new Promise<void>((resolve) => {
      releaseLate = resolve;
    });
    // Instance A's link to the shared store: its clears reach it late.
    const slowClears: CatalogStore = {
      get: (key) => shared.get(key),
      set: (key, value, ttl) => shared.set(key, value, ttl),
      setIfAbsent: (key, value, ttl) => shared.setIfAbsent(key, value, ttl),
      delete: (key) => late.then(() => shared.delete(key)),
      deleteIfEquals: (key, value) => late.then(() => shared.deleteIfEquals(key, value)),
      lock: (key, options) => shared.lock(key, options),
    };
    const a = updateTool(slowClears);
    const b = updateTool(shared);
    expect(
      await modelText(a, input('col', { add_clauses: [clause({ product_ids: ['P'] })] })),
    ).toMatch(/^Updated/);
    now += 600_001; // A's record expires before its clear arrives.
    const addQ = input('col', { add_clauses: [clause({ product_ids: ['Q'] })] });
    drop = true;
    await modelText(b, addQ);
    drop = false;
    releaseLate();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await modelText(b, addQ)).toMatch(/^Not sent/);
    expect(appliedTwice()).toEqual([]);
  });

  it('F5 a change over 500 ids is refused naming the field; a refusal lists 10 ids and counts the rest, fast', async () => {
    const tool = updateTool();
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `prod_${i}`);
    const tooMany = await modelText(
      tool,
      input('col', { add_clauses: [clause({ product_ids: ids(501) })] }),
    );
    expect(tooMany).toMatch(/add_clauses.*501 ids.*at most 500/);
    expect(patches()).toBe(0);
    const add = input('col', { add_clauses: [clause({ product_ids: ids(500) })] });
    drop = true;
    await modelText(tool, add);
    drop = false;
    const started = performance.now();
    const refused = await modelText(tool, add);
    const ms = performance.now() - started;
    expect(refused).toMatch(/^Not sent: .*prod_106 and 490 more, .* selects them again/);
    expect(refused.length).toBeLessThan(1_500);
    expect(ms).toBeLessThan(200);
  });

  it('F6 and outcomeUnknown: the refusal says in words which collection, what, for how long, what still works; nothing was sent', async () => {
    const tool = updateTool();
    drop = true;
    await modelText(tool, input('col', { add_clauses: [clause({ brand_ids: ['nike'] })] }));
    drop = false;
    const repeat = input('col', { add_clauses: [clause({ brand_ids: ['nike'] })] });
    const text = await modelText(tool, repeat);
    expect(text).toMatch(/collection col, adding or replacing clauses with brands nike,/);
    expect(text).toMatch(/refused for up to 10 minutes; renames, descriptions and removals/);
    expect(text).not.toMatch(/brand_ids:/);
    const error = await tool.execute(repeat as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RepeatedUpdateError);
    expect((error as RepeatedUpdateError).outcomeUnknown).toBe(false);
  });
});
