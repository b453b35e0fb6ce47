import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import * as zm from 'zod/v4/mini';
import { CatalogClient } from '../src/client.js';
import { withoutProtoKeys } from '../src/http/response-body.js';
import { CatalogSearchResultSchema, SearchCatalogArgumentsSchema } from '../src/schemas/catalog.js';
import { CollectionSchema, CollectionUpdateSchema } from '../src/schemas/collections.js';
import { TurnSchema } from '../src/schemas/conversations.js';
import { JsonRpcResponseSchema, ToolCallResultSchema } from '../src/schemas/mcp.js';
import { WebsiteSearchParamsSchema, WebsiteSearchResponseSchema } from '../src/schemas/websites.js';
import { schemaCheck } from '../src/validation/schema-check.js';
import { catalogPayload, rpcIdOf, TEST_KEY, toolsCallAnswer } from './support/fixtures.js';
import { sendJson, startTestServer } from './support/test-server.js';

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

interface Change {
  pathIndex: number;
  replacement: Json;
  remove: boolean;
  added: string | null;
}

/**
 * A copy of `value` with the value at `path` replaced, deleted (`remove`), or, when `added`
 * names a key and the value there is an object, with that key added.
 */
function mutate(value: Json, path: (string | number)[], change: Change): Json {
  const { replacement, remove, added } = change;
  const copy = structuredClone({ root: value }) as Record<string | number, Json>;
  let parent = copy;
  const keys = ['root', ...path];
  for (const key of keys.slice(0, -1)) parent = parent[key] as Record<string | number, Json>;
  const last = keys[keys.length - 1] as string | number;
  const target = parent[last];
  if (added !== null && target !== null && typeof target === 'object' && !Array.isArray(target)) {
    // As JSON.parse does: an own member.
    Object.defineProperty(target, added, {
      value: replacement,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else if (remove && !Array.isArray(parent)) delete parent[last];
  else parent[last] = replacement;
  return copy.root;
}

/**
 * Valid samples with a few random changes: a field retyped, removed, added, or a value
 * swapped for one zod treats specially (NaN, the infinities, undefined, a nested object).
 */
function nearValid(sample: Json) {
  const paths = pathsOf(sample);
  const change = fc.record({
    pathIndex: fc.nat({ max: paths.length - 1 }),
    replacement: fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom(undefined, null, '', 0, -1.5, true, [], {}, '2.0', 'token', 'sse'),
      fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, { note: 'x' }, ['a']),
    ),
    remove: fc.boolean(),
    added: fc.option(fc.constantFrom('extra', 'id', 'title', 'products', 'a', 'kind', '__proto__')),
  });
  return fc.array(change, { maxLength: 3 }).map((changes) =>
    changes.reduce<Json>((value, item) => {
      const current = pathsOf(value);
      const path = current[item.pathIndex % current.length] ?? [];
      return mutate(value, path, item);
    }, sample),
  );
}

/** Schemas the check compiles, each with a valid sample: the answers and every construct. */
const COMPILED: [string, z.core.$ZodType, Json][] = [
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
      description: null,
      clauses: [
        { clause_id: 'k', brand_ids: [], website_ids: [], category_ids: [], product_ids: ['p'] },
      ],
    },
  ],
  ['Turn', TurnSchema, { turn_id: 't', reply: { role: 'assistant', content: 'hi' } }],
  // Requests: their copies are checked first, and zod parses those the check does not pass.
  ['WebsiteSearchParams', WebsiteSearchParamsSchema, { query: 'shoes', limit: 20, country: 'GB' }],
  [
    'SearchCatalogArguments',
    SearchCatalogArgumentsSchema,
    {
      meta: null,
      catalog: { query: 'trail shoes', pagination: { limit: 1, cursor: 'c' }, placements: ['a'] },
    },
  ],
  [
    'checks: lengths, bounds, an integer, a pattern, a trim',
    z.strictObject({
      name: z.string().min(2).max(3).regex(/^a/),
      count: z.number().int().gte(1).lt(3),
      ratio: z.number().gt(0).lte(1),
      list: z.array(z.string().trim()).min(1).max(2),
      padded: zm.string().check(zm.trim(), zm.minLength(1)),
    }),
    { name: 'ab', count: 2, ratio: 1, list: ['x'], padded: 'p' },
  ],
  [
    'classic: strict and plain objects, enum, literal, nullable, default, union',
    z.strictObject({
      kind: z.enum(['a', 'b']),
      version: z.literal(2),
      inner: z.object({ a: z.string(), b: z.number().nullable() }),
      list: z.array(z.union([z.string(), z.boolean(), z.null()])).default([]),
    }),
    { kind: 'a', version: 2, inner: { a: 'x', b: null }, list: ['s', true, null] },
  ],
  [
    'mini: the same constructs',
    zm.strictObject({
      kind: zm.enum(['a', 'b']),
      version: zm.literal(2),
      inner: zm.object({ a: zm.string(), b: zm.nullable(zm.number()) }),
      list: zm._default(zm.array(zm.union([zm.string(), zm.boolean(), zm.null()])), []),
    }),
    { kind: 'b', version: 2, inner: { a: '', b: 1 }, list: [] },
  ],
];

/** True when zod succeeds on `value` and returns a value equal to it, in every detail. */
function zodKeepsAsIs(schema: z.core.$ZodType, value: Json): boolean {
  const parsed = z.safeParse(schema, value);
  return parsed.success && isDeepStrictEqual(parsed.data, value);
}

afterEach(() => {
  z.config({ jitless: false });
});

describe('the answer check is exactly zod with nothing to change', () => {
  it.each(COMPILED)('%s: compiles and passes the valid sample', (_name, schema, sample) => {
    const check = schemaCheck(schema);
    expect(check).toBeDefined();
    expect(check?.(sample)).toBe(true);
    expect(zodKeepsAsIs(schema, sample)).toBe(true);
  });

  it.each(COMPILED)(
    '%s: passes a value if and only if zod succeeds and returns it unchanged',
    (_name, schema, sample) => {
      const check = schemaCheck(schema);
      fc.assert(
        // As an answer reaches the check: parsed from the server's text, own `__proto__`
        // members dropped (the generator adds some, as JSON.parse would make them).
        fc.property(nearValid(sample), (generated) => {
          const value = withoutProtoKeys(generated);
          expect(check?.(value)).toBe(zodKeepsAsIs(schema, value));
        }),
        { numRuns: RUNS },
      );
    },
  );

  it('leaves to zod what it does not reproduce: any check, refinement or transform', () => {
    // A refinement runs code of its own; so do formats other than a plain pattern.
    expect(schemaCheck(CollectionUpdateSchema)).toBeUndefined();
    expect(schemaCheck(z.string().refine((s) => s !== 'x'))).toBeUndefined();
    expect(schemaCheck(z.int())).toBeUndefined();
    expect(schemaCheck(z.string().email())).toBeUndefined();
    expect(schemaCheck(z.string().url())).toBeUndefined();
    expect(schemaCheck(z.number().multipleOf(2))).toBeUndefined();
    expect(schemaCheck(z.looseObject({}).check(zm.minLength(1) as never))).toBeUndefined();
    expect(schemaCheck(z.string().transform((s) => s.length))).toBeUndefined();
    expect(schemaCheck(z.lazy(() => z.string()))).toBeUndefined();
    // A trim passes only text it leaves as it is: zod trims the rest.
    const trimmed = schemaCheck(z.looseObject({ a: z.string().trim() }));
    expect([trimmed?.({ a: 'x' }), trimmed?.({ a: ' x' })]).toEqual([true, false]);
  });

  it('fills nothing in: a default to apply goes to zod', () => {
    expect(schemaCheck(CatalogSearchResultSchema)?.({})).toBe(false);
    expect(CatalogSearchResultSchema.parse({})).toEqual({ products: [] });
  });

  it('writes property names into the code only as JSON string literals', () => {
    const odd = [
      '"]; throw new Error("injected"); //',
      '\u2028',
      '`$' + '{x}`',
      'a\\',
      '__proto__',
    ];
    const schema = z.looseObject(Object.fromEntries(odd.map((key) => [key, z.number()])));
    const check = schemaCheck(schema);
    const value = JSON.parse(JSON.stringify(Object.fromEntries(odd.map((key) => [key, 1]))));
    expect(check?.(value)).toBe(true);
    expect(check?.({ ...value, [odd[0] as string]: 'one' })).toBe(false);
  });

  it('keeps an own __proto__ member as JSON.parse made it, leaving the prototype alone', () => {
    // zod drops such a member (or, for an object value, makes it the prototype of its copy).
    const parsed = JSON.parse('{"websites": [], "__proto__": {"polluted": true}}');
    expect(schemaCheck(WebsiteSearchResponseSchema)?.(parsed)).toBe(true);
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.hasOwn(parsed, '__proto__')).toBe(true);
  });

  it('generates code (Node allows new Function), one read per declared field', () => {
    const check = schemaCheck(
      z.looseObject({ id: z.string(), n: z.optional(z.number()), any: z.unknown() }),
    );
    expect(check).toBeDefined();
    // Each field read once, inline; a field any value passes (`unknown`) is not read at all.
    const source = String(check);
    expect(source).toContain('f = v["id"]; if (!(typeof f === "string")) return false;');
    expect(source).toContain('f = v["n"]; if (!((f === undefined || typeof f === "number"');
    expect(source).not.toContain('v["any"]');
  });
});

describe('the switch: z.config({ jitless: true }) turns the answer check off', () => {
  it('gives no check under jitless, and the check again once it is lifted', () => {
    expect(schemaCheck(CatalogSearchResultSchema)).toBeDefined();
    z.config({ jitless: true });
    expect(schemaCheck(CatalogSearchResultSchema)).toBeUndefined();
    z.config({ jitless: false });
    expect(schemaCheck(CatalogSearchResultSchema)).toBeDefined();
  });

  it('catalog.search answers the same with the check off (zod parses, a copy)', async () => {
    const payload = catalogPayload();
    const server = await startTestServer((request, response) =>
      sendJson(response, 200, toolsCallAnswer(rpcIdOf(request.body), payload), {
        'x-ucp-auth-tier': 'token',
      }),
    );
    try {
      const client = new CatalogClient({ apiKey: TEST_KEY, mcpUrl: server.origin });
      const checked = await client.catalog.search({ query: 'shoes' });
      z.config({ jitless: true });
      const parsed = await client.catalog.search({ query: 'shoes' });
      expect(parsed).toStrictEqual(checked);
      expect(checked.result).toStrictEqual(payload);
      // A default zod fills in: the same answer without products reads as no products.
      const { products: _none, ...withoutProducts } = payload;
      server.handle((request, response) =>
        sendJson(response, 200, toolsCallAnswer(rpcIdOf(request.body), withoutProducts), {
          'x-ucp-auth-tier': 'token',
        }),
      );
      z.config({ jitless: false });
      expect((await client.catalog.search({ query: 'shoes' })).result.products).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
