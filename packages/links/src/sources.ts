import { productOffers } from '@catalogkit/core/tools';
/**
 * Where buy links may come from: tool results (`{ request, response, tier }` for
 * `search_catalog`), each labelled with the name of the tool that gave it, as frameworks
 * record them and as they survive JSON (AI SDK `steps[].toolResults` and `tool-result` parts,
 * `{ toolName: message.name, output: message.artifact }` for a LangChain ToolMessage). Only
 * results of the catalog search tool (`search_catalog`, or the names in `catalogToolNames`)
 * are trusted; any other tool's output is ignored, whatever it looks like, so a fetched page
 * cannot plant a "buy link".
 */
export type BuyLinkSources = Iterable<{ readonly toolName: string; readonly output: unknown }>;

/** Options that say which tool results are trusted as catalog results. */
export interface BuyLinkTrustOptions {
  /**
   * Names of the tools whose results are catalog results. Default `['search_catalog']`;
   * give the new name if you renamed the tool.
   */
  catalogToolNames?: readonly string[];
}

/** The name of the catalog search tool, the only trusted source unless renamed. */
const CATALOG_SEARCH_TOOL = 'search_catalog';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A catalog result: an object with a `products` list. */
const asCatalogResult = (value: unknown) =>
  isRecord(value) && Array.isArray(value.products) ? value : undefined;

/**
 * The catalog result (`{ products }`) of a trusted tool's source: its output's `response`, the
 * output itself, or (stored before the one output shape) `result`; `{ type: 'json', value }`
 * (an AI SDK model-message output) is unwrapped.
 */
function catalogResultOf(
  source: unknown,
  trusted: ReadonlySet<string>,
): Record<string, unknown> | undefined {
  if (!isRecord(source) || typeof source.toolName !== 'string') return undefined;
  if (!trusted.has(source.toolName)) return undefined;
  let output = source.output;
  if (isRecord(output) && output.type === 'json' && 'value' in output) output = output.value;
  if (!isRecord(output)) return undefined;
  return (
    asCatalogResult(output.response) ?? asCatalogResult(output.result) ?? asCatalogResult(output)
  );
}

/** Every distinct buy link in the results of the trusted catalog tools, in order of first use. */
export function collectBuyLinks(
  sources: BuyLinkSources,
  options: BuyLinkTrustOptions = {},
): string[] {
  const trusted = new Set(options.catalogToolNames ?? [CATALOG_SEARCH_TOOL]);
  const links = new Set<string>();
  for (const source of sources) {
    const products = catalogResultOf(source, trusted)?.products;
    if (!Array.isArray(products)) continue;
    for (const product of products) {
      for (const { link } of productOffers(product)) if (link !== undefined) links.add(link);
    }
  }
  return [...links];
}
