import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';

/** Pre-rendered answers for the canned server, taken from the emulator's real data. */
export interface CannedAnswers {
  /** Body of `GET /v1/websites/search`. */
  websites: string;
  /** JSON-RPC answers by product count, with `"__ID__"` where the request's id goes. */
  catalogs: Record<string, string>;
}

/** The product counts measured. */
export const PRODUCT_COUNTS = [10, 100] as const;

async function rawResult(emulator: RunningEmulator, cursor: string | undefined) {
  const response = await fetch(`${emulator.mcpUrl}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'x-api-key': emulator.keys.valid,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'search_catalog',
        arguments: {
          meta: null,
          catalog: { query: 'shoes', pagination: { limit: 50, cursor }, placements: ['affiliate'] },
        },
      },
    }),
  });
  const body = (await response.json()) as {
    result: { structuredContent: { products: unknown[]; pagination?: { cursor?: string } } };
  };
  return body.result.structuredContent;
}

/** The first `count` products of a search, as the JSON-RPC answer a server would send. */
function catalogAnswer(first: Awaited<ReturnType<typeof rawResult>>, products: unknown[]) {
  const structuredContent = { ...first, products, pagination: { has_next_page: true } };
  return JSON.stringify({
    jsonrpc: '2.0',
    id: '__ID__',
    // Servers also send a JSON copy as text content, as the emulator and the SDK do.
    result: {
      content: [{ type: 'text', text: JSON.stringify(structuredContent) }],
      structuredContent,
    },
  });
}

/** Asks an emulator (with a valid key, affiliate placements) and renders the answers. */
export async function cannedAnswers(): Promise<CannedAnswers> {
  const emulator = await startEmulator({ port: 0, mcpResponse: 'json' });
  try {
    const page1 = await rawResult(emulator, undefined);
    const page2 = await rawResult(emulator, page1.pagination?.cursor);
    const products = [...page1.products, ...page2.products];
    if (products.length < 100) throw new Error(`only ${products.length} products for "shoes"`);
    const websites = await fetch(`${emulator.baseUrl}/v1/websites/search?query=shop&limit=5`, {
      headers: { 'x-api-key': emulator.keys.valid },
    });
    const catalogs = Object.fromEntries(
      PRODUCT_COUNTS.map((count) => [
        String(count),
        catalogAnswer(page1, products.slice(0, count)),
      ]),
    );
    return { websites: await websites.text(), catalogs };
  } finally {
    await emulator.close();
  }
}
