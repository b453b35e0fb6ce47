import type {
  SearchCatalogInput,
  SearchCatalogOutput,
  UpdateCollectionOutput,
} from '@catalogkit/core';
import type { generateText, InferToolInput, InferToolOutput } from 'ai';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { type ComparePricesOutput, comparePrices } from '../../core/test/support/custom-tools.js';
import { createCatalogTools } from '../src/index.js';

// Type-level checks (tsc runs over test/ in `pnpm typecheck`): each @ts-expect-error line
// fails the typecheck if it ever compiles. The runtime assertions keep vitest honest.
const clientOptions = {
  apiKey: 'k',
  baseUrl: 'http://127.0.0.1:1/api',
  mcpUrl: 'http://127.0.0.1:1/ucp',
};

describe('the typed tool set of createCatalogTools', () => {
  it('keys each built-in by name with its input and output types', () => {
    const tools = createCatalogTools({ clientOptions });
    expect(Object.keys(tools)).toEqual(['search_catalog', 'search_websites', 'update_collection']);
    expectTypeOf<InferToolInput<typeof tools.search_catalog>>().toEqualTypeOf<SearchCatalogInput>();
    expectTypeOf<
      InferToolOutput<typeof tools.update_collection>
    >().toEqualTypeOf<UpdateCollectionOutput>();
    // @ts-expect-error a misspelt tool name does not compile
    expect(tools.search_catalgo).toBeUndefined();
  });

  it('narrows the set to include/exclude, and checks their names', () => {
    const tools = createCatalogTools({ clientOptions, exclude: ['update_collection'] });
    expect(Object.keys(tools)).toEqual(['search_catalog', 'search_websites']);
    // @ts-expect-error excluded, so not in the set
    expect(tools.update_collection).toBeUndefined();
    // @ts-expect-error not a tool name
    expect(() => createCatalogTools({ clientOptions, include: ['search_catalgo'] })).toThrow();
  });

  it('types your own tools by their names', () => {
    const tools = createCatalogTools({
      clientOptions,
      tools: [comparePrices],
      include: ['compare_prices'],
    });
    expect(Object.keys(tools)).toEqual(['compare_prices']);
    expectTypeOf<
      InferToolOutput<typeof tools.compare_prices>
    >().toEqualTypeOf<ComparePricesOutput>();
  });

  it('types generateText tool results by tool name', () => {
    const tools = createCatalogTools({ clientOptions, include: ['search_catalog'] });
    type Result = Awaited<ReturnType<typeof generateText<typeof tools>>>;
    type ToolResult = Result['toolResults'][number];
    expectTypeOf<
      Extract<ToolResult, { dynamic?: false; toolName: 'search_catalog' }>['output']
    >().toEqualTypeOf<SearchCatalogOutput>();
    // With rename the names are known at run time only: a plain record.
    const renamed = createCatalogTools({ clientOptions, rename: (name) => `shop_${name}` });
    expect(Object.keys(renamed)).toContain('shop_search_catalog');
    expectTypeOf(renamed).toEqualTypeOf<Record<string, (typeof renamed)[string]>>();
  });
});
