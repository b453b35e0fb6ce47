import { createParser } from 'eventsource-parser';

export interface RpcCall {
  status: number;
  headers: Headers;
  /** The JSON-RPC response whose id matches the request, from JSON or SSE. */
  message: {
    id?: unknown;
    result?: Record<string, unknown>;
    error?: { code: number; message: string; data?: unknown };
  };
}

/** The JSON-RPC message of an answer, whether it is one JSON object or an SSE stream. */
async function messageOf(response: Response, id: number): Promise<RpcCall['message']> {
  const text = await response.text();
  if (!response.headers.get('content-type')?.includes('text/event-stream')) return JSON.parse(text);
  const messages: RpcCall['message'][] = [];
  const parser = createParser({ onEvent: (event) => messages.push(JSON.parse(event.data)) });
  parser.feed(text);
  const match = messages.find((message) => message.id === id);
  if (!match) throw new Error(`no JSON-RPC response with id ${id} in ${text}`);
  return match;
}

/** POSTs one JSON-RPC request to `${mcpUrl}/mcp` over plain fetch. */
export async function rpc(
  mcpUrl: string,
  method: string,
  params: unknown,
  headers: Record<string, string> = {},
  id = 1,
): Promise<RpcCall> {
  const response = await fetch(`${mcpUrl}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  });
  return {
    status: response.status,
    headers: response.headers,
    message: await messageOf(response, id),
  };
}

/** A `tools/call` of search_catalog. */
export function searchCatalog(
  mcpUrl: string,
  catalog: Record<string, unknown>,
  headers: Record<string, string> = {},
  meta: unknown = null,
) {
  return rpc(
    mcpUrl,
    'tools/call',
    { name: 'search_catalog', arguments: { meta, catalog } },
    headers,
  );
}

/** The structuredContent of a search, typed loosely for assertions. */
export interface SearchResult {
  products: {
    id: string;
    title: string;
    price_range: { min: { amount: number }; max: { amount: number } };
    variants: {
      id: string;
      url: string;
      price: { amount: number };
      placement?: Record<string, unknown>;
      metadata: { website_id: string; seller_country: string };
    }[];
  }[];
  pagination: { has_next_page: boolean; total_count: number; cursor?: string };
  messages?: { type: string; code?: string; content: string }[];
}

export const structured = (call: RpcCall): SearchResult =>
  call.message.result?.structuredContent as SearchResult;
