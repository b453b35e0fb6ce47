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

/** One offer of a product: the record it is shown from and its buy link, if it has one. */
export interface ProductOffer {
  /** A variant record, or the product itself when it has no variants. */
  offer: Record<string, unknown>;
  /**
   * The offer's `url` when it is a web address (`https:` or `http:`, as the URL parser reads
   * it), byte for byte: a hostile or broken service that puts `javascript:` or `data:` there
   * gives no buy link at all, so nothing downstream (verify, render, references) can trust it.
   */
  link: string | undefined;
}

/**
 * The offers of one product and their buy links: each variant that is a record, or the
 * product itself when its `variants` list is empty or absent (a list holding no record gives
 * no offer, and no fallback to the product's `url`). The one buy-link rule: `collectBuyLinks`
 * and the MCP storefront's cards both use it. Self-contained (nothing from outside its body),
 * so the storefront ships this very function as source text into its page.
 */
export function productOffers(product: unknown): ProductOffer[] {
  const isRecord = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  const webLink = (value: unknown): string | undefined => {
    if (typeof value !== 'string') return undefined;
    // Not URL.parse: the storefront runs this in hosts' browsers, some without it.
    let protocol: string;
    try {
      protocol = new URL(value).protocol;
    } catch {
      return undefined;
    }
    return protocol === 'https:' || protocol === 'http:' ? value : undefined;
  };
  if (!isRecord(product)) return [];
  const variants = Array.isArray(product.variants) ? product.variants : [];
  if (variants.length === 0) return [{ offer: product, link: webLink(product.url) }];
  return variants.filter(isRecord).map((offer) => ({ offer, link: webLink(offer.url) }));
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
