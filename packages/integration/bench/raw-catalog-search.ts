import type { CatalogQuery } from '@catalogkit/core';

/** The raw answer of one `search_catalog` call: what a generic MCP bridge would give a model. */
export interface RawCatalogSearch {
  structuredContent: unknown;
  tier: string | null;
}

/**
 * Calls `search_catalog` with a bare JSON-RPC POST, bypassing the client, so the
 * baseline is the service's own `structuredContent`. Expects an emulator started with
 * `mcpResponse: 'json'` (one JSON object, no SSE).
 */
export async function rawCatalogSearch(
  mcpUrl: string,
  apiKey: string | undefined,
  catalog: CatalogQuery,
): Promise<RawCatalogSearch> {
  const response = await fetch(`${mcpUrl}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(apiKey ? { 'x-api-key': apiKey } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'search_catalog', arguments: { meta: null, catalog } },
    }),
  });
  if (!response.ok) throw new Error(`raw search failed: HTTP ${response.status}`);
  const body = (await response.json()) as { result?: { structuredContent?: unknown } };
  return {
    structuredContent: body.result?.structuredContent,
    tier: response.headers.get('x-ucp-auth-tier'),
  };
}

/** Every `variants[].url` of a structuredContent, in order. */
export function buyLinksOf(structuredContent: unknown): string[] {
  const products = (
    structuredContent as { products?: Array<{ variants?: Array<{ url?: string }> }> }
  )?.products;
  return (products ?? []).flatMap((product) =>
    (product.variants ?? []).flatMap((variant) => (variant.url ? [variant.url] : [])),
  );
}
