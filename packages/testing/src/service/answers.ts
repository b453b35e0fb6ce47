import { CATALOG_RESULT_TOOLS, catalogResultProducts } from '@catalogkit/links';
import { isJson, type Json } from '../json.js';
import type { ServiceExchange } from './proxy.js';

/** The catalog tools whose results hold buy links (`CATALOG_RESULT_TOOLS` of `@catalogkit/links`). */
const CATALOG_TOOLS: readonly string[] = CATALOG_RESULT_TOOLS;

/** One catalog tool call (`search_catalog`, `lookup_catalog`, `get_product`) the service answered with a result. */
export interface SearchAnswer {
  /** The tool called. */
  tool: string;
  /** The `catalog` argument the client sent. */
  catalog: unknown;
  /** The result the service answered (`structuredContent`: `{ products, ... }` or `{ product }`). */
  result: Json;
}

/** The JSON messages of an answer: one JSON body, or the `data:` lines of an event stream. */
export function answerMessages(body: string): unknown[] {
  try {
    return [JSON.parse(body) as unknown];
  } catch {
    // Not one JSON document: read it as server-sent events.
  }
  return body
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data:'))
    .flatMap((line) => {
      try {
        return [JSON.parse(line.slice('data:'.length)) as unknown];
      } catch {
        return [];
      }
    });
}

function catalogCall(exchange: ServiceExchange): Json | undefined {
  if (exchange.method !== 'POST' || !exchange.path.endsWith('/mcp')) return undefined;
  const [message] = answerMessages(exchange.requestBody);
  if (!isJson(message) || message.method !== 'tools/call' || !isJson(message.params))
    return undefined;
  const { name } = message.params;
  return typeof name === 'string' && CATALOG_TOOLS.includes(name) ? message : undefined;
}

/** The catalog tools' results the service gave, in order (failed calls left out). */
export function catalogAnswers(exchanges: readonly ServiceExchange[]): SearchAnswer[] {
  return exchanges.flatMap((exchange) => {
    const call = catalogCall(exchange);
    if (!call || exchange.cut || exchange.status !== 200 || !isJson(call.params)) return [];
    const tool = String(call.params.name);
    const args = isJson(call.params.arguments) ? call.params.arguments : {};
    return answerMessages(exchange.responseBody)
      .filter(isJson)
      .filter((message) => message.id === call.id && isJson(message.result))
      .map((message) => (message.result as Json).structuredContent)
      .filter((result): result is Json => catalogResultProducts(result) !== undefined)
      .map((result) => ({ tool, catalog: args.catalog, result }));
  });
}

/** The `search_catalog` results the service gave, in order (failed calls left out). */
export function searchAnswers(exchanges: readonly ServiceExchange[]): SearchAnswer[] {
  return catalogAnswers(exchanges).filter((answer) => answer.tool === 'search_catalog');
}

/** The retailer sites the service gave in `search_websites` answers (`websites[].url`). */
export function retailerSites(exchanges: readonly ServiceExchange[]): string[] {
  const urls = new Set<string>();
  for (const exchange of exchanges) {
    if (exchange.method !== 'GET' || !/\/websites\/search(?:\?|$)/.test(exchange.path)) continue;
    if (exchange.cut || exchange.status !== 200) continue;
    const [answer] = answerMessages(exchange.responseBody);
    const websites = isJson(answer) && Array.isArray(answer.websites) ? answer.websites : [];
    for (const website of websites) {
      if (isJson(website) && typeof website.url === 'string') urls.add(website.url);
    }
  }
  return [...urls];
}

/** Every web address in some values (a product page, a picture), walked with an explicit stack. */
export function webAddressesIn(values: readonly unknown[]): string[] {
  const found: string[] = [];
  const stack: unknown[] = [...values];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (/^https?:\/\//i.test(value)) found.push(value);
    } else if (Array.isArray(value)) stack.push(...value);
    else if (value !== null && typeof value === 'object') stack.push(...Object.values(value));
  }
  return found;
}
