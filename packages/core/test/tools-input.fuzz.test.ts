import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogClient } from '../src/client.js';
import { RequestValidationError } from '../src/errors/index.js';
import { COUNTRY_CODES } from '../src/schemas/index.js';
import { type AnyCatalogTool, createCatalogToolList } from '../src/tools/index.js';
import { TEST_KEY } from './support/fixtures.js';
import type { TestServer } from './support/test-server.js';
import { startToolService } from './support/tool-service.js';

// Property-based tests of the tools' input: what a model may send is accepted with one
// meaning, what it must not send is refused (every bad field named at once, nothing sent),
// and whatever the tool accepts the client accepts too (the two schemas cannot drift).
// `pnpm fuzz` raises the number of runs with CATALOGKIT_FUZZ_RUNS.
const RUNS = Number(process.env.CATALOGKIT_FUZZ_RUNS) || 150;

let service: TestServer;
let tools: Record<string, AnyCatalogTool>;

beforeAll(async () => {
  service = await startToolService();
  tools = freshTools();
});

/**
 * Tools on a new client: a new memory of sent updates, so an input that repeats an earlier
 * run's is sent again rather than answered from memory.
 */
function freshTools(): Record<string, AnyCatalogTool> {
  const client = new CatalogClient({
    apiKey: TEST_KEY,
    baseUrl: service.origin,
    mcpUrl: service.origin,
    maxRetries: 0,
  });
  const list = createCatalogToolList({ client });
  return Object.fromEntries(list.map((tool) => [tool.originalName, tool]));
}
afterAll(() => service.close());

const parse = (name: string, input: unknown) => tools[name]?.inputSchema.safeParse(input);

// --- canonical inputs (what a strict-mode model sends) -----------------------------------

const word = fc.stringMatching(/^[a-z][a-z0-9_-]{0,11}$/);
const text = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 .,'-]{0,30}[A-Za-z0-9]$/);
const ids = fc.array(word, { maxLength: 3 });

const catalogInput = fc.record({
  query: text,
  limit: fc.option(fc.integer({ min: 1, max: 20 }), { nil: null }),
  cursor: fc.option(word, { nil: null }),
  placements: fc.option(fc.constantFrom(['affiliate']), { nil: null }),
});
const websitesInput = fc.record({
  query: text,
  limit: fc.option(fc.integer({ min: 1, max: 20 }), { nil: null }),
  category_ids: fc.option(ids, { nil: null }),
  country: fc.option(fc.constantFrom(...COUNTRY_CODES), { nil: null }),
});
const clause = fc.record({
  brand_ids: ids,
  website_ids: ids,
  category_ids: ids,
  product_ids: ids,
});
const updateInput = fc.record({
  collection_id: word,
  name: fc.option(text, { nil: null }),
  description: fc.option(text, { nil: null }),
  add_clauses: fc.option(fc.array(clause, { maxLength: 2 }), { nil: null }),
  replace_clauses: fc.option(
    fc.array(
      clause.map((selectors) => ({ clause_id: 'cl_1', ...selectors })),
      { maxLength: 2 },
    ),
    { nil: null },
  ),
  remove_clause_ids: fc.option(ids, { nil: null }),
});

// --- how models vary them -----------------------------------------------------------------

type Input = Record<string, unknown>;

/** Random case of each letter, deterministic from the seed. */
function recase(value: string, seed: number): string {
  return [...value]
    .map((char, i) => ((seed >> (i % 16)) & 1 ? char.toUpperCase() : char.toLowerCase()))
    .join('');
}

/** One model-style variation of each field, chosen by `choice`. */
function vary(input: Input, choices: number[]): Input {
  const varied: Input = {};
  for (const [index, [key, value]] of Object.entries(input).entries()) {
    const choice = choices[index % choices.length] ?? 0;
    if (value === null) {
      // Left out, or null: the same.
      if (choice % 2 === 0) varied[key] = null;
      continue;
    }
    if (typeof value === 'number') varied[key] = choice % 2 ? ` ${value} ` : String(value);
    else if (key === 'country' && typeof value === 'string') {
      varied[key] = value === 'GB' && choice % 3 === 0 ? 'uk' : recase(value, choice);
    } else if (key === 'placements') varied[key] = choice % 2 ? 'AFFILIATE' : ['Affiliate'];
    else if (typeof value === 'string') varied[key] = choice % 2 ? `  ${value}\n` : value;
    else if (Array.isArray(value) && value.length === 1 && typeof value[0] === 'string') {
      varied[key] = choice % 2 ? value[0] : value;
    } else varied[key] = value;
  }
  return varied;
}

const cases = [
  ['search_catalog', catalogInput],
  ['search_websites', websitesInput],
  ['update_collection', updateInput],
] as const;

describe.each(cases)('%s input', (name, canonical) => {
  it('takes every model-style variation of a valid input with the same meaning', () => {
    fc.assert(
      fc.property(
        canonical,
        fc.array(fc.nat(), { minLength: 1, maxLength: 8 }),
        (input, choices) => {
          const exact = parse(name, input);
          if (name === 'update_collection' && !exact?.success) return; // no change given
          expect(exact?.success).toBe(true);
          expect(parse(name, vary(input, choices))?.data).toEqual(exact?.data);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('names exactly the fields it refuses, all at once, and sends nothing', async () => {
    const bad: Record<string, unknown[]> = {
      query: ['', '   ', 42, ['shoes']],
      limit: [0, 21, 2.5, 'five', '5.5', true],
      cursor: ['', ' '],
      placements: [['commission'], 3, [null]],
      category_ids: [[''], ['  '], [3]],
      country: ['Narnia', 'usa', 7],
      collection_id: ['', ' ', 5, '\uD800x'],
      name: ['', ' \t'],
      description: [' '],
      add_clauses: [[{ product_ids: [''] }], 'clause', [{ sku_ids: ['x'] }]],
      replace_clauses: [[{ product_ids: ['p'] }]],
      remove_clause_ids: [[''], [null]],
    };
    await fc.assert(
      fc.asyncProperty(
        canonical,
        fc.array(fc.nat(), { minLength: 12, maxLength: 12 }),
        fc.nat(),
        async (input, picks, which) => {
          const keys = Object.keys(input).filter((key) => key in bad);
          const corrupted = keys.filter((_, i) => (picks[i] ?? 0) % 2 === 0);
          if (corrupted.length === 0) corrupted.push(keys[which % keys.length] as string);
          const broken: Input = { ...input };
          for (const [i, key] of corrupted.entries()) {
            const values = bad[key] as unknown[];
            broken[key] = values[((picks[i] ?? 0) + which) % values.length];
          }
          const before = service.requests.length;
          const error = await tools[name]
            ?.execute(broken as never)
            .catch((caught: unknown) => caught);
          expect(error).toBeInstanceOf(RequestValidationError);
          const fields = new Set(
            (error as RequestValidationError).issues.map((issue) => issue.path.split('.')[0]),
          );
          expect([...fields].sort()).toEqual([...corrupted].sort());
          expect(service.requests.length).toBe(before);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('what the tool accepts, the client accepts: no second refusal after sending', async () => {
    await fc.assert(
      fc.asyncProperty(
        canonical,
        fc.array(fc.nat(), { minLength: 1, maxLength: 8 }),
        async (input, choices) => {
          const tool = freshTools()[name] as AnyCatalogTool;
          const varied = vary(input, choices);
          if (!tool.inputSchema.safeParse(varied).success) return;
          const before = service.requests.length;
          // A refusal by the client would be a RequestValidationError naming the wire operation.
          await expect(tool.execute(varied as never)).resolves.toBeDefined();
          expect(service.requests.length).toBe(before + 1);
        },
      ),
      { numRuns: Math.ceil(RUNS / 3) },
    );
  });
});
