/*
 * assertTrajectory over the tool calls that really reached the emulator, run through the
 * LangChain adapter's tools (the real client): the order, the calls per answer, a search
 * repeated with the same input, a tool after a denial; the client's own resends counted once.
 */
import { createCatalogTools } from '@catalogkit/langchain';
import type { DynamicStructuredTool } from '@langchain/core/tools';
import { afterEach, describe, expect, it } from 'vitest';
import {
  assertTrajectory,
  type CatalogService,
  startCatalogService,
  toolCallsOf,
} from '../src/index.js';

const SHOES = { query: 'running shoes', limit: 2 };
const RETAILERS = { query: 'running', country: 'GB' };

let service: CatalogService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function tools(): Promise<Record<string, DynamicStructuredTool>> {
  service = await startCatalogService();
  const list = createCatalogTools({ clientOptions: service.clientOptions });
  return Object.fromEntries(list.map((tool) => [tool.name, tool]));
}

describe('assertTrajectory', () => {
  it('passes the order given, in order, and fails another or an exact order', async () => {
    const tool = await tools();
    await tool.search_catalog!.invoke(SHOES);
    await tool.search_websites!.invoke(RETAILERS);
    expect(toolCallsOf(service!.exchanges).map((call) => call.toolName)).toEqual([
      'search_catalog',
      'search_websites',
    ]);
    assertTrajectory(service!, {
      order: ['search_catalog', 'search_websites'],
      maxCallsPerAnswer: 2,
    });
    expect(() =>
      assertTrajectory(service!, { order: ['search_websites', 'search_catalog'] }),
    ).toThrow(
      'assertTrajectory: the tools ran as [search_catalog, search_websites], expected in this order [search_websites, search_catalog]',
    );
    expect(() =>
      assertTrajectory(service!, { order: ['search_catalog'], exactOrder: true }),
    ).toThrow(/expected exactly \[search_catalog\]/);
    expect(() => assertTrajectory(service!, { maxCallsPerAnswer: 1 })).toThrow(
      'assertTrajectory: 2 tool calls for 1 answer(s) (at most 1 per answer)',
    );
  });

  it('fails a search repeated with the same input, not a search with another', async () => {
    const tool = await tools();
    await tool.search_catalog!.invoke(SHOES);
    await tool.search_catalog!.invoke({ ...SHOES, query: 'trail shoes' });
    assertTrajectory(service!);
    await tool.search_catalog!.invoke(SHOES);
    expect(() => assertTrajectory(service!)).toThrow(
      /search_catalog ran 2 times with the same input \{.*"query":"running shoes".*\}: reuse the result of the first search/,
    );
    // Two answers may each search once.
    assertTrajectory(service!, { answers: 2 });
  });

  it('counts a search the client resent after a dropped connection once', async () => {
    const tool = await tools();
    service!.emulator.faults.set({ routes: ['POST /mcp tools/call'], drop: 'before', times: 1 });
    await tool.search_catalog!.invoke(SHOES);
    expect(service!.requestCount({ method: 'POST', path: /mcp/ })).toBeGreaterThan(1);
    expect(toolCallsOf(service!.exchanges)).toHaveLength(1);
    assertTrajectory(service!);
  });

  it('fails a tool run after the shopper denied a change', async () => {
    const tool = await tools();
    await tool.search_catalog!.invoke(SHOES);
    const approvals = [
      { toolName: 'update_collection', input: {}, approved: false, at: performance.now() },
    ];
    assertTrajectory(service!, { approvals });
    await tool.search_websites!.invoke(RETAILERS);
    expect(() => assertTrajectory(service!, { approvals })).toThrow(
      'assertTrajectory: search_websites ran after the shopper denied update_collection: after a denial, answer without running tools',
    );
  });
});
