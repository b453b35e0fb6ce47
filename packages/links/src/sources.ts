import { productOffers } from '@catalogkit/core/tools';
/**
 * Where buy links may come from: tool results (`{ request, response, tier }` for
 * `search_catalog`), each labelled with the name of the tool that gave it, as frameworks
 * record them and as they survive JSON (AI SDK `steps[].toolResults` and `tool-result` parts,
 * `{ toolName: message.name, output: message.artifact }` for a LangChain ToolMessage). Only
 * results of the catalog tools (`search_catalog`, `lookup_catalog`, `get_product`:
 * `CATALOG_RESULT_TOOLS`, or the names in `catalogToolNames`) are trusted; any other tool's
 * output is ignored, whatever it looks like, so a fetched page cannot plant a "buy link".
 */
export type BuyLinkSources = Iterable<{ readonly toolName: string; readonly output: unknown }>;

/** Options that say which tool results are trusted as catalog results. */
export interface BuyLinkTrustOptions {
  /**
   * Names of the tools whose results are catalog results. Default
   * `CATALOG_RESULT_TOOLS` (`search_catalog`, `lookup_catalog`, `get_product`); give the new
   * names if you renamed the tools. Inside catalogkit's tool sets those names are always the
   * service's tools (a custom tool may not take them); a tool of those names from elsewhere
   * (another MCP server's) must not be passed as a source, or pass this list without it.
   */
  catalogToolNames?: readonly string[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The built-in tools whose results are catalog results (products with buy links): the one
 * list of trusted buy-link sources (this package and the adapters default to it).
 */
export const CATALOG_RESULT_TOOLS = ['search_catalog', 'lookup_catalog', 'get_product'] as const;

/**
 * The products of a catalog result: its `products[]` (search, lookup) or its one `product`
 * (get_product); undefined when it is neither.
 */
export function catalogResultProducts(result: unknown): unknown[] | undefined {
  if (!isRecord(result)) return undefined;
  if (Array.isArray(result.products)) return result.products;
  return isRecord(result.product) ? [result.product] : undefined;
}

/**
 * The products of a trusted tool's catalog result (`{ products }`, or get_product's
 * `{ product }`): its output's `response`, the output itself, or (stored before the one
 * output shape) `result`; `{ type: 'json', value }` (an AI SDK model-message output) is
 * unwrapped.
 */
function trustedProducts(source: unknown, trusted: ReadonlySet<string>): unknown[] | undefined {
  if (!isRecord(source) || typeof source.toolName !== 'string') return undefined;
  if (!trusted.has(source.toolName)) return undefined;
  let output = source.output;
  if (isRecord(output) && output.type === 'json' && 'value' in output) output = output.value;
  if (!isRecord(output)) return undefined;
  return (
    catalogResultProducts(output.response) ??
    catalogResultProducts(output.result) ??
    catalogResultProducts(output)
  );
}

/** The products of the trusted catalog tools' results, in order. */
export function* catalogProducts(
  sources: BuyLinkSources,
  options: BuyLinkTrustOptions = {},
): Generator<unknown> {
  const trusted = new Set<string>(options.catalogToolNames ?? CATALOG_RESULT_TOOLS);
  for (const source of sources) yield* trustedProducts(source, trusted) ?? [];
}

/** Every distinct buy link in the results of the trusted catalog tools, in order of first use. */
export function collectBuyLinks(
  sources: BuyLinkSources,
  options: BuyLinkTrustOptions = {},
): string[] {
  const links = new Set<string>();
  for (const product of catalogProducts(sources, options)) {
    for (const { link } of productOffers(product)) if (link !== undefined) links.add(link);
  }
  return [...links];
}
