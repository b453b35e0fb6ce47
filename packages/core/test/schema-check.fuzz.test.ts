import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod/v4';
import { CatalogSearchResultSchema, SearchCatalogArgumentsSchema } from '../src/schemas/catalog.js';
import {
  CollectionIdSchema,
  CollectionSchema,
  CollectionUpdateSchema,
  ReplacementClauseSchema,
} from '../src/schemas/collections.js';
import {
  ConversationIdSchema,
  ConversationTokenSchema,
  TurnSchema,
} from '../src/schemas/conversations.js';
import { JsonRpcResponseSchema, ToolCallResultSchema } from '../src/schemas/mcp.js';
import { WebsiteSearchParamsSchema, WebsiteSearchResponseSchema } from '../src/schemas/websites.js';
import { SchemaCheckCompiler, schemaCheck } from '../src/validation/schema-check.js';
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

interface Change {
  pathIndex: number;
  replacement: Json;
  remove: boolean;
  added: string | null;
}

/**
 * Valid samples with a few random changes: a field retyped, removed, added, or a value
 * swapped for one near a bound (padded text, a fraction, a number past a limit).
 */
function nearValid(sample: Json) {
  const paths = pathsOf(sample);
  const change = fc.record({
    pathIndex: fc.nat({ max: paths.length - 1 }),
    replacement: fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom(undefined, null, '', 0, -1.5, true, [], {}, '2.0', 'token'),
      fc.constantFrom(' shoes ', 'a'.repeat(201), 1.5, 21, 2 ** 53, 'us', 'EU', Number.NaN),
      // Lone surrogates, alone and in open values: requests must refuse them.
      fc.constantFrom('\uD800', 'x\uDC00y', '👟', { note: '\uDBFF' }, ['\uD83D']),
    ),
    remove: fc.boolean(),
    added: fc.option(fc.constantFrom('extra', 'limit', 'query', 'name', 'cursor')),
  });
  return fc.array(change, { maxLength: 3 }).map((changes) =>
    changes.reduce<Json>((value, item) => {
      const current = pathsOf(value);
      const path = current[item.pathIndex % current.length] ?? [];
      return mutate(value, path, item);
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
  [
    'WebsiteSearchParams (request)',
    WebsiteSearchParamsSchema,
    { query: 'nike', limit: 5, category_ids: ['shoes'], country: 'GB' },
  ],
  [
    'SearchCatalogArguments (request)',
    SearchCatalogArgumentsSchema,
    {
      meta: { 'ucp-agent': { profile: 'https://agent.example' } },
      catalog: {
        query: 'shoes',
        pagination: { limit: 10, cursor: 'c1' },
        placements: ['affiliate'],
      },
    },
  ],
  [
    'ReplacementClause (request)',
    ReplacementClauseSchema,
    { clause_id: 'k', brand_ids: ['b'], website_ids: [], category_ids: [], product_ids: [] },
  ],
  ['CollectionId (request)', CollectionIdSchema, 'col_1'],
  ['ConversationId (request)', ConversationIdSchema, 'conv_1'],
];

/** True when no string anywhere in `value` (member names aside) holds a lone surrogate. */
function wellFormedDeep(value: unknown): boolean {
  if (typeof value === 'string') return !/[\uD800-\uDFFF]/u.test(value);
  if (value === null || typeof value !== 'object') return true;
  return Object.values(value).every(wellFormedDeep);
}

const COMPILERS = [
  ['generated code', new SchemaCheckCompiler({ generateCode: true })],
  ['loops', new SchemaCheckCompiler({ generateCode: false })],
] as const;

// Request checks: also every string well-formed, in the schema's fields or in open values.
const REQUEST_COMPILERS = [
  ['generated code', new SchemaCheckCompiler({ generateCode: true, wellFormedDeep })],
  ['loops', new SchemaCheckCompiler({ generateCode: false, wellFormedDeep })],
] as const;

describe.each(COMPILERS)(
  'the no-copy check (%s) accepts exactly what zod returns unchanged',
  (_mode, compiler) => {
    it.each(CASES)(
      '%s: the check compiles and accepts the valid sample',
      (_name, schema, sample) => {
        expect(compiler.checkOf(schema)).toBeDefined();
        expect(compiler.checkOf(schema)?.(sample)).toBe(true);
      },
    );

    it.each(CASES)(
      '%s: whenever the check passes, zod succeeds with an equal value',
      (_name, schema, sample) => {
        const check = compiler.checkOf(schema);
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
  },
);

describe.each(REQUEST_COMPILERS)(
  'the request check (%s) accepts exactly what zod returns unchanged, in well-formed Unicode',
  (_mode, compiler) => {
    it.each(CASES)(
      '%s: whenever the check passes, zod succeeds with an equal value and every string is well-formed',
      (_name, schema, sample) => {
        const check = compiler.checkOf(schema);
        expect(check?.(sample)).toBe(true);
        fc.assert(
          fc.property(nearValid(sample), (value) => {
            const plain = COMPILERS[0][1].checkOf(schema)?.(value) ?? false;
            // The same verdict as the answer check, but for the lone surrogates.
            expect(check?.(value)).toBe(plain && wellFormedDeep(value));
            if (!check?.(value)) return;
            const parsed = schema.safeParse(value);
            expect(parsed.success).toBe(true);
            expect(parsed.data).toStrictEqual(value);
          }),
          { numRuns: RUNS },
        );
      },
    );
  },
);

describe('the no-copy check', () => {
  it.each(CASES)('%s: generated code and loops give the same verdict', (_name, schema, sample) => {
    for (const compilers of [COMPILERS, REQUEST_COMPILERS]) {
      const [generated, loops] = compilers.map(([, compiler]) => compiler.checkOf(schema));
      fc.assert(
        fc.property(nearValid(sample), (value) => {
          expect(generated?.(value)).toBe(loops?.(value));
        }),
        { numRuns: RUNS },
      );
    }
  });

  it('checks a request in one generated function: rules and strictness inline', () => {
    const check = REQUEST_COMPILERS[0][1].checkOf(WebsiteSearchParamsSchema)?.toString() ?? '';
    expect(check).toContain('f.length >= 1 && f.length <= 200 && f.isWellFormed()');
    expect(check).toContain('Number.isSafeInteger(f) && f >= 1 && f <= 20');
    expect(check).toMatch(/for \(const key in v\) if \(k\[\d+\]\[key\] !== true\) return false/);
  });

  it('generates code where zod does (Node allows new Function)', () => {
    const check = schemaCheck(WebsiteSearchResponseSchema);
    expect(check?.toString()).toContain('f = v["websites"]');
  });

  it('uses loops, no generated code, under z.config({ jitless: true }), as zod does', async () => {
    vi.resetModules();
    const fresh = await import('zod/v4');
    fresh.z.config({ jitless: true });
    try {
      const { schemaCheck: freshCheck } = await import('../src/validation/schema-check.js');
      const { WebsiteSearchResponseSchema: schema } = await import('../src/schemas/websites.js');
      const check = freshCheck(schema);
      expect(check?.({ websites: [{ id: 'w', url: 'https://x.example' }] })).toBe(true);
      expect(check?.toString()).not.toContain('f = v[');
    } finally {
      fresh.z.config({ jitless: false });
    }
  });

  it('keeps an own __proto__ member as JSON.parse made it, leaving the prototype alone', () => {
    // zod drops such a member (or, for an object value, makes it the prototype of its copy).
    const parsed = JSON.parse('{"websites": [], "__proto__": {"polluted": true}}');
    expect(schemaCheck(WebsiteSearchResponseSchema)?.(parsed)).toBe(true);
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.hasOwn(parsed, '__proto__')).toBe(true);
  });

  it('leaves to zod what it cannot reproduce: defaults to fill, refinements, strict objects', () => {
    expect(schemaCheck(CatalogSearchResultSchema)?.({})).toBe(false);
    expect(CatalogSearchResultSchema.parse({})).toEqual({ products: [] });
    expect(schemaCheck(z.string().max(1))?.('ab')).toBe(false);
    expect(schemaCheck(z.int())).toBeUndefined();
    // A refinement on an object: an empty collection update must reach zod, which refuses it.
    expect(schemaCheck(CollectionUpdateSchema)).toBeUndefined();
    expect(schemaCheck(z.array(z.string()).min(1))).toBeUndefined();
    expect(schemaCheck(z.string().email())).toBeUndefined();
    expect(schemaCheck(z.string().toLowerCase())?.('Aa')).toBe(false);
    expect(schemaCheck(z.strictObject({ a: z.string() }))?.({ a: 'x', b: 1 })).toBe(false);
    expect(schemaCheck(z.object({ a: z.string() }))?.({ a: 'x', b: 1 })).toBe(false);
    expect(schemaCheck(z.strictObject({}))?.({ b: 1 })).toBe(false);
    expect(schemaCheck(z.string().transform((s) => s.length))).toBeUndefined();
  });
});
