import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { schemaCheck } from '../src/http/schema-check.js';
import { CatalogSearchResultSchema } from '../src/schemas/catalog.js';
import { CollectionSchema } from '../src/schemas/collections.js';
import { ConversationTokenSchema, TurnSchema } from '../src/schemas/conversations.js';
import { JsonRpcResponseSchema, ToolCallResultSchema } from '../src/schemas/mcp.js';
import { WebsiteSearchResponseSchema } from '../src/schemas/websites.js';
import { catalogPayload, toolsCallAnswer } from './support/fixtures.js';

const RUNS = Number(process.env.CATALOGKIT_FUZZ_RUNS) || 300;

type Json = unknown;

/** Every path (list of keys) to a value inside `value`, the root included. */
function pathsOf(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  const paths = [prefix];
  if (value !== null && typeof value === 'object') {
    // Arrays too: their entries are [index, item].
    for (const [key, item] of Object.entries(value)) paths.push(...pathsOf(item, [...prefix, key]));
  }
  return paths;
}

/** A copy of `value` with the value at `path` replaced (or deleted when `replacement` is the marker). */
function mutate(value: Json, path: (string | number)[], replacement: Json, remove: boolean): Json {
  if (path.length === 0) return replacement;
  const copy = structuredClone(value) as Record<string | number, Json>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, Json>;
  const last = path[path.length - 1] as string | number;
  if (remove && !Array.isArray(parent)) delete parent[last];
  else parent[last] = replacement;
  return copy;
}

/** Valid samples with a few random changes: a field retyped, removed, or a value swapped. */
function nearValid(sample: Json) {
  const paths = pathsOf(sample);
  const change = fc.record({
    pathIndex: fc.nat({ max: paths.length - 1 }),
    replacement: fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom(undefined, null, '', 0, -1.5, true, [], {}, '2.0', 'token'),
    ),
    remove: fc.boolean(),
  });
  return fc.array(change, { maxLength: 3 }).map((changes) =>
    changes.reduce<Json>((value, { pathIndex, replacement, remove }) => {
      const current = pathsOf(value);
      const path = current[pathIndex % current.length] ?? [];
      return mutate(value, path, replacement, remove);
    }, sample),
  );
}

const CASES: [string, z.ZodType, Json][] = [
  ['CatalogSearchResult', CatalogSearchResultSchema, catalogPayload()],
  ['JsonRpcResponse', JsonRpcResponseSchema, toolsCallAnswer(1)],
  ['ToolCallResult', ToolCallResultSchema, toolsCallAnswer(1).result],
  [
    'WebsiteSearchResponse',
    WebsiteSearchResponseSchema,
    { websites: [{ id: 'w', url: 'https://x.example', best_commission_rate: 4.5, extra: [1] }] },
  ],
  [
    'Collection',
    CollectionSchema,
    {
      collection_id: 'c',
      name: 'n',
      clauses: [
        { clause_id: 'k', brand_ids: [], website_ids: [], category_ids: [], product_ids: ['p'] },
      ],
    },
  ],
  [
    'ConversationToken',
    ConversationTokenSchema,
    { token: 't', token_id: 'i', expires_at: '2030-01-01T00:00:00Z' },
  ],
  ['Turn', TurnSchema, { turn_id: 't', reply: { role: 'assistant', content: 'hi' } }],
];

describe('the no-copy check accepts exactly what zod returns unchanged', () => {
  it.each(CASES)('%s: the check compiles and accepts the valid sample', (_name, schema, sample) => {
    expect(schemaCheck(schema)).toBeDefined();
    expect(schemaCheck(schema)?.(sample)).toBe(true);
  });

  it.each(CASES)(
    '%s: whenever the check passes, zod succeeds with an equal value',
    (_name, schema, sample) => {
      const check = schemaCheck(schema);
      fc.assert(
        fc.property(nearValid(sample), (value) => {
          if (!check?.(value)) return;
          const parsed = schema.safeParse(value);
          expect(parsed.success).toBe(true);
          expect(parsed.data).toStrictEqual(value);
        }),
        { numRuns: RUNS },
      );
    },
  );

  it('leaves to zod what it cannot reproduce: defaults to fill, refinements, strict objects', () => {
    expect(schemaCheck(CatalogSearchResultSchema)?.({})).toBe(false);
    expect(CatalogSearchResultSchema.parse({})).toEqual({ products: [] });
    expect(schemaCheck(z.string().max(1))).toBeUndefined();
    expect(schemaCheck(z.int())).toBeUndefined();
    expect(schemaCheck(z.strictObject({ a: z.string() }))).toBeUndefined();
    expect(schemaCheck(z.object({ a: z.string() }))).toBeUndefined();
    expect(schemaCheck(z.string().transform((s) => s.length))).toBeUndefined();
  });
});
