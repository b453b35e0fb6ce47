import {
  CatalogClient,
  type CollectionUpdate,
  ConnectionError,
  ServerError,
} from '@catalogkit/core';
import {
  type RunningEmulator,
  type StartEmulatorOptions,
  startEmulator,
} from '@catalogkit/emulator';
import { afterEach, describe, expect, it } from 'vitest';

const ROUTE = 'PATCH /v1/collections/:collection_id';
const COLLECTION = 'col_summer';

let emulator: RunningEmulator;
afterEach(() => emulator.close());

async function setUp(faults: StartEmulatorOptions['faults'] = undefined) {
  emulator = await startEmulator({ faults });
  return new CatalogClient({
    apiKey: emulator.keys.valid,
    baseUrl: emulator.baseUrl,
    maxRetries: 3,
  });
}

const addition: CollectionUpdate = {
  add_clauses: [{ brand_ids: ['brand_once'], website_ids: [], category_ids: [], product_ids: [] }],
};

/** How many clauses of the stored collection select `brand_once`. */
function addedClauses(): number {
  const stored = emulator.state.collections.get(COLLECTION) as {
    clauses: { brand_ids: string[] }[];
  };
  return stored.clauses.filter((clause) => clause.brand_ids.includes('brand_once')).length;
}

describe('collections.update against the emulator', () => {
  it('adds a clause and returns the collection with it', async () => {
    const client = await setUp();
    const collection = await client.collections.update(COLLECTION, addition);
    expect(collection.collection_id).toBe(COLLECTION);
    expect(collection.clauses?.some((clause) => clause.brand_ids.includes('brand_once'))).toBe(
      true,
    );
    expect(addedClauses()).toBe(1);
  });

  it('renames, and replaces and removes clauses by id', async () => {
    const client = await setUp();
    const added = await client.collections.update(COLLECTION, addition);
    const clauseId =
      added.clauses?.find((clause) => clause.brand_ids.includes('brand_once'))?.clause_id ?? '';
    const replaced = await client.collections.update(COLLECTION, {
      name: 'Summer sale',
      replace_clauses: [
        {
          clause_id: clauseId,
          brand_ids: ['brand_twice'],
          website_ids: [],
          category_ids: [],
          product_ids: [],
        },
      ],
    });
    expect(replaced.name).toBe('Summer sale');
    expect(replaced.clauses?.find((clause) => clause.clause_id === clauseId)?.brand_ids).toEqual([
      'brand_twice',
    ]);
    const removed = await client.collections.update(COLLECTION, { remove_clause_ids: [clauseId] });
    expect(removed.clauses?.some((clause) => clause.clause_id === clauseId)).toBe(false);
  });

  it('is applied exactly once when the connection drops after the service applied it', async () => {
    const client = await setUp({ routes: [ROUTE], drop: 'after', times: 1 });
    const error = await client.collections.update(COLLECTION, addition).catch((caught) => caught);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.requestSent).toBe(true);
    expect(emulator.stats.count(ROUTE)).toBe(1);
    expect(addedClauses()).toBe(1);
  });

  it('is not resent after a drop before processing either (the client cannot tell)', async () => {
    const client = await setUp({ routes: [ROUTE], drop: 'before', times: 1 });
    await expect(client.collections.update(COLLECTION, addition)).rejects.toBeInstanceOf(
      ConnectionError,
    );
    expect(emulator.stats.count(ROUTE)).toBe(1);
    expect(addedClauses()).toBe(0);
  });

  it('is not resent after a truncated answer', async () => {
    const client = await setUp({ routes: [ROUTE], truncate: true, times: 1 });
    await expect(client.collections.update(COLLECTION, addition)).rejects.toBeDefined();
    expect(emulator.stats.count(ROUTE)).toBe(1);
    expect(addedClauses()).toBe(1);
  });

  it('is not resent after a 500', async () => {
    const client = await setUp({ routes: [ROUTE], status: 500, times: 1 });
    await expect(client.collections.update(COLLECTION, addition)).rejects.toBeInstanceOf(
      ServerError,
    );
    expect(emulator.stats.count(ROUTE)).toBe(1);
  });

  it('is resent after a 429 (refused before processing) and applied once', async () => {
    const client = await setUp({ routes: [ROUTE], status: 429, retryAfterSeconds: 0, times: 1 });
    await client.collections.update(COLLECTION, addition);
    expect(emulator.stats.count(ROUTE)).toBe(2);
    expect(addedClauses()).toBe(1);
  });
});
