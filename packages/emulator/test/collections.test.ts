import { CollectionSchema } from '@catalogkit/core/schemas';
import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../src/index.js';
import { manualClock, send, start } from './helpers.js';

const emptyClause = { brand_ids: [], website_ids: [], category_ids: [], product_ids: [] };

async function patch(
  emulator: RunningEmulator,
  id: string,
  body: unknown,
  key = emulator.keys.valid,
) {
  const response = await send(emulator, 'PATCH', `/v1/collections/${id}`, body, {
    'x-api-key': key,
  });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown> & { detail?: unknown },
  };
}

describe('PATCH /v1/collections/{id}', () => {
  it('renames and describes the seeded "Summer" collection of the valid key', async () => {
    const emulator = await start();
    const { status, body } = await patch(emulator, 'col_summer', {
      name: 'Summer 2026',
      description: 'Sun and sand',
    });
    expect(status).toBe(200);
    const collection = CollectionSchema.parse(body);
    expect(collection).toMatchObject({
      collection_id: 'col_summer',
      name: 'Summer 2026',
      description: 'Sun and sand',
      user_id: 'usr_demo',
    });
    expect(emulator.state.collections.get('col_summer')?.name).toBe('Summer 2026');
  });

  it('adds clauses with new ids, replaces and removes clauses by id, in one update', async () => {
    const emulator = await start();
    const productId = emulator.data.products[10]?.id ?? '';
    const added = await patch(emulator, 'col_running', {
      add_clauses: [
        { ...emptyClause, product_ids: [productId] },
        { ...emptyClause, category_ids: ['sandals'] },
      ],
    });
    const clauses = added.body.clauses as { clause_id: string }[];
    expect(clauses.map((c) => c.clause_id)).toEqual(['cl_0002', 'cl_0003', 'cl_0005', 'cl_0006']);
    const updated = await patch(emulator, 'col_running', {
      replace_clauses: [{ clause_id: 'cl_0005', ...emptyClause, brand_ids: ['brand_x'] }],
      remove_clause_ids: ['cl_0002', 'cl_0006'],
    });
    expect(updated.status).toBe(200);
    expect(updated.body.clauses).toEqual([
      {
        clause_id: 'cl_0003',
        ...emptyClause,
        website_ids: emulator.data.websites.slice(0, 3).map((w) => w.id),
      },
      { clause_id: 'cl_0005', ...emptyClause, brand_ids: ['brand_x'] },
    ]);
  });

  it('moves updated_at on every update, even when the clock stands still', async () => {
    const clock = manualClock('2026-03-01T10:00:00.000Z');
    const emulator = await start({ now: clock.now });
    const first = await patch(emulator, 'col_summer', { name: 'A' });
    expect(first.body.updated_at).toBe('2026-03-01T10:00:00.000Z');
    expect(first.body.created_at).toBe('2025-05-01T09:30:00.000Z');
    const second = await patch(emulator, 'col_summer', { name: 'B' });
    expect(Date.parse(second.body.updated_at as string)).toBeGreaterThan(
      Date.parse(first.body.updated_at as string),
    );
    clock.advance(60_000);
    const third = await patch(emulator, 'col_summer', { description: 'C' });
    expect(third.body.updated_at).toBe('2026-03-01T10:01:00.000Z');
  });

  it('refuses unknown clause ids with 422 naming them, applying nothing', async () => {
    const emulator = await start();
    const before = structuredClone(emulator.state.collections.get('col_running'));
    const { status, body } = await patch(emulator, 'col_running', {
      name: 'Renamed',
      add_clauses: [emptyClause],
      replace_clauses: [{ clause_id: 'cl_9999', ...emptyClause }],
      remove_clause_ids: ['cl_0002', 'cl_0001'],
    });
    expect(status).toBe(422);
    expect(body.detail).toEqual([
      {
        loc: ['body', 'replace_clauses', 0, 'clause_id'],
        msg: "Unknown clause id 'cl_9999' in collection 'col_running'",
        type: 'unknown_clause_id',
      },
      // cl_0001 exists, but in another collection.
      {
        loc: ['body', 'remove_clause_ids', 1],
        msg: "Unknown clause id 'cl_0001' in collection 'col_running'",
        type: 'unknown_clause_id',
      },
    ]);
    expect(emulator.state.collections.get('col_running')).toEqual(before);
  });

  it('refuses a clause id given twice (replace and remove) with 422', async () => {
    const emulator = await start();
    const { status, body } = await patch(emulator, 'col_running', {
      replace_clauses: [{ clause_id: 'cl_0002', ...emptyClause }],
      remove_clause_ids: ['cl_0002'],
    });
    expect(status).toBe(422);
    expect(body.detail).toMatchObject([
      { loc: ['body', 'remove_clause_ids', 0], type: 'duplicate_clause_id' },
    ]);
  });

  it('answers the same 404 for an unknown collection and for another user’s collection', async () => {
    const emulator = await start();
    const unknown = await patch(emulator, 'col_nope', { name: 'x' });
    const foreign = await patch(emulator, 'col_other_private', { name: 'x' });
    expect(unknown).toEqual({ status: 404, body: { detail: 'Collection not found.' } });
    expect(foreign).toEqual(unknown);
    expect(emulator.state.collections.get('col_other_private')?.name).toBe('Private picks');
    const owner = await patch(
      emulator,
      'col_other_private',
      { name: 'Mine' },
      emulator.keys.otherUser,
    );
    expect(owner.status).toBe(200);
  });

  it.each([
    [{}, ['body'], 'value_error'],
    [{ name: '' }, ['body', 'name'], 'string_too_short'],
    [{ nmae: 'x' }, ['body', 'nmae'], 'extra_forbidden'],
    [{ add_clauses: [{ brand_ids: [] }] }, ['body', 'add_clauses', 0, 'website_ids'], 'missing'],
    [
      { add_clauses: [{ ...emptyClause, clause_id: 'cl_1' }] },
      ['body', 'add_clauses', 0, 'clause_id'],
      'extra_forbidden',
    ],
    [{ remove_clause_ids: 'cl_0001' }, ['body', 'remove_clause_ids'], 'array_type'],
  ])('answers 422 for %j, naming %j', async (input, loc, type) => {
    const emulator = await start();
    const { status, body } = await patch(emulator, 'col_summer', input);
    expect(status).toBe(422);
    expect(body.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc, type })]));
  });

  it('answers 422 for a body that is not JSON', async () => {
    const emulator = await start();
    const { status, body } = await patch(emulator, 'col_summer', '{"name": ');
    expect(status).toBe(422);
    expect(body.detail).toMatchObject([{ loc: ['body', 0], type: 'json_invalid' }]);
  });
});
