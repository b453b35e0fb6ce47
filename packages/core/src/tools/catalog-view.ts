import { isRecord } from '../is-record.js';
import {
  type AuthTier,
  type CatalogMessage,
  type CatalogQuery,
  type CatalogSearchResult,
  commissionPercentage,
  type Placement,
  type Product,
  type Variant,
} from '../schemas/catalog.js';
import { type BuyLinkMode, buyLinkReference } from './buy-link-reference.js';
import { formatMinorUnits } from './money.js';
import { countOf } from './plural.js';
import type { CatalogToolResult } from './result.js';

/**
 * What the application gets from `search_catalog`: the query as sent (`request`), the full
 * parsed result (`response`) and the tier. Defined next to its view, which the tool
 * definition uses.
 */
export interface SearchCatalogOutput extends CatalogToolResult<CatalogQuery, CatalogSearchResult> {
  /** The tier the service applied; `anonymous` means buy links are not monetized. */
  tier: AuthTier;
}

/**
 * How the model reads buy links when the options do not say: references, so no URL of the
 * catalog reaches the model and none can be miscopied; the answer is resolved before a
 * shopper sees it. `inline` is opt-in, for hosts that show the model's text as written.
 */
export const DEFAULT_BUY_LINK_MODE: BuyLinkMode = 'reference';

/** Cells of one line, without the empty ones, joined by a separator that costs one token. */
function cells(...values: Array<string | undefined>): string {
  return values.filter((value): value is string => Boolean(value)).join(' | ');
}

/** Availability, only when it is not plain "in stock" (the legend says so, saving tokens). */
function availabilityText(variant: Variant): string | undefined {
  const availability = variant.availability;
  if (!availability) return undefined;
  const status = availability.status?.replaceAll('_', ' ');
  if (status && status !== 'in stock') return status;
  return availability.available === false ? 'out of stock' : undefined;
}

function priceText(variant: Variant): string | undefined {
  if (!variant.price) return undefined;
  const price = formatMinorUnits(variant.price);
  const list = variant.list_price;
  // A list price only tells the shopper something when the item is on sale.
  const sale =
    list && list.currency === variant.price.currency && list.amount > variant.price.amount
      ? `was ${formatMinorUnits(list)}`
      : undefined;
  const notes = [sale, availabilityText(variant)].filter(Boolean).join(', ');
  return notes ? `${price} (${notes})` : price;
}

/**
 * The commission on a variant. The placement shape is not public: the comparable catalog's
 * `commission.percentage.value` is shown as a percentage; any other shape is shown as JSON
 * so nothing the service said is hidden from the model.
 */
export function commissionText(placement: Placement | undefined): string | undefined {
  if (!placement || Object.keys(placement).length === 0) return undefined;
  const percentage = commissionPercentage(placement);
  if (percentage !== undefined) return `${percentage}%`;
  return `placement ${JSON.stringify(placement)}`;
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

/** A string member of an open object (`metadata`, `placement`), if the service sent one. */
function stringMember(record: unknown, key: string): string | undefined {
  const value = isRecord(record) ? record[key] : undefined;
  return isNonEmptyString(value) ? value : undefined;
}

/**
 * The retailer's website id, which collection clauses select by. Product records are not in
 * the contract: the id is read where the service puts it (the variant's open `metadata`, else
 * its placement) and left out when it is absent.
 */
function websiteIdOf(variant: Variant): string | undefined {
  return (
    stringMember(variant.metadata, 'website_id') ?? stringMember(variant.placement, 'website_id')
  );
}

/** The buy link cell: the link byte for byte, or in `reference` mode its reference. */
function linkText(url: string | undefined, buyLinks: BuyLinkMode): string | undefined {
  if (!url) return undefined;
  return buyLinks === 'reference' ? buyLinkReference(url) : url;
}

/**
 * One offer: price (sale, availability), retailer and its website id, commission, and the buy
 * link byte for byte (or its reference). A printed link that contains the website id already
 * shows it, so the id is not printed twice.
 */
function variantCells(variant: Variant, buyLinks: BuyLinkMode): string {
  const websiteId = websiteIdOf(variant);
  const inLink = buyLinks === 'inline' && websiteId && variant.url?.includes(websiteId);
  return cells(
    priceText(variant),
    variant.seller?.name,
    inLink ? undefined : websiteId,
    commissionText(variant.placement),
    linkText(variant.url, buyLinks),
  );
}

function productPriceRange(product: Product): string | undefined {
  const range = product.price_range;
  if (!range) return undefined;
  const min = formatMinorUnits(range.min);
  const max = formatMinorUnits(range.max);
  return min === max ? min : `${min} to ${max}`;
}

/**
 * What a variant's title adds to its product's: `"Trail Runner - Red"` adds `"Red"`; a
 * title that repeats the product's or says "Default" adds nothing.
 */
function ownTitle(product: Product, variant: Variant): string | undefined {
  const title = variant.title?.trim();
  if (!title || title === product.title || /^default( title)?$/i.test(title)) return undefined;
  if (!title.startsWith(product.title)) return title;
  const rest = title.slice(product.title.length).replace(/^[\s\-–—:,/|]+/, '');
  return rest || undefined;
}

/** The ids clauses can select a product by: its own and its brand's. */
function productHead(product: Product): string {
  const brandId = stringMember(product.metadata, 'brand_id');
  return cells(product.title, product.id, brandId);
}

function categoryIds(product: Product): string {
  return (product.categories ?? []).map((category) => category.value).join(', ');
}

function productLines(product: Product, buyLinks: BuyLinkMode): string[] {
  const head = productHead(product);
  const [only, ...rest] = product.variants;
  if (!only) return [cells(head, productPriceRange(product), linkText(product.url, buyLinks))];
  if (rest.length === 0) {
    return [cells(head, ownTitle(product, only), variantCells(only, buyLinks))];
  }
  return [
    head,
    ...product.variants.map(
      (variant) => `- ${cells(ownTitle(product, variant), variantCells(variant, buyLinks))}`,
    ),
  ];
}

/** Products, with a category line whenever the category changes (results mostly share one). */
export function productSection(products: Product[], buyLinks: BuyLinkMode): string[] {
  let category = '';
  return products.flatMap((product) => {
    const next = categoryIds(product);
    const heading = next && next !== category ? [`Category ${next}:`] : [];
    category = next || category;
    return [...heading, ...productLines(product, buyLinks)];
  });
}

/**
 * How to read the view, for the tool description: said once there instead of in every
 * result. It depends on the mode, since the model must know whether it copies links or
 * references.
 */
export function catalogViewLegend(buyLinks: BuyLinkMode): string {
  const link =
    buyLinks === 'reference'
      ? 'buy reference such as [[buy:123456789]]'
      : 'buy link (a website_id the link contains is not printed again)';
  return [
    `Results list each product as "title | product_id | brand_id" and each offer as "- option | price | retailer | website_id | commission | ${link}"; a single offer shares its product's line, parts a result lacks are left out, and items are in stock unless marked.`,
    buyLinks === 'reference'
      ? "Never write a buy URL yourself: write the offer's buy reference exactly as printed where the link goes, on its own or as a markdown link target (e.g. [Buy at Retailer]([[buy:123456789]])); the application replaces it with the exact link."
      : 'Give the buy link to the shopper exactly as printed; never shorten or edit it.',
  ].join(' ');
}

/** The tier's and the service's notes, shared by the views of every catalog tool. */
export function noticeLines(
  tier: AuthTier | undefined,
  messages: readonly CatalogMessage[] = [],
  placements = false,
): string[] {
  const lines: string[] = [];
  if (tier === 'anonymous') {
    lines.push('Buy links are not monetized (anonymous tier: no valid API key).');
    if (placements) lines.push('Commission data needs a valid API key, so none is shown.');
  }
  for (const message of messages) {
    lines.push(`${message.type}${message.code ? ` ${message.code}` : ''}: ${message.content}`);
  }
  return lines;
}

function headerLines(output: SearchCatalogOutput): string[] {
  const { request, response, tier } = output;
  const count = response.products.length;
  const total = response.pagination?.total_count;
  // "1 product", "2 products", "1 of 5 products".
  const found =
    total === undefined ? countOf(count, 'product') : `${count} of ${countOf(total, 'product')}`;
  const placements = Boolean(request.placements?.length);
  return [`${found} for "${request.query}".`, ...noticeLines(tier, response.messages, placements)];
}

function footerLines(output: SearchCatalogOutput): string[] {
  const page = output.response.pagination;
  if (page?.has_next_page && page.cursor) {
    return [`Next page: the same query with cursor "${page.cursor}".`];
  }
  if (output.response.products.length === 0)
    return ['Nothing matched; try broader or different words.'];
  return [];
}

/**
 * The compact, faithful view of a catalog search for the model: per product its title, id,
 * brand id and category ids, per offer its option, price, availability, retailer and website
 * id, commission and buy link, byte for byte (in `reference` mode the link's short reference,
 * {@link buyLinkReference}, which `resolveBuyLinks` turns back into the link). Descriptions,
 * media, options and unknown fields stay in the application's full result;
 * {@link catalogViewLegend} (in the tool description) says how to read it.
 */
export function formatCatalogResult(
  output: SearchCatalogOutput,
  buyLinks: BuyLinkMode = DEFAULT_BUY_LINK_MODE,
): string {
  return [
    ...headerLines(output),
    ...productSection(output.response.products, buyLinks),
    ...footerLines(output),
  ].join('\n');
}
