import { isRecord } from '../is-record.js';
import {
  type AuthTier,
  type CatalogQuery,
  type CatalogSearchResult,
  commissionPercentage,
  type Placement,
  type Product,
  type Variant,
} from '../schemas/catalog.js';
import { type BuyLinkMode, buyLinkReference } from './buy-link-reference.js';
import type { CatalogToolResult } from './definition.js';
import { formatMinorUnits } from './money.js';

/** What the application gets from `search_catalog`: the query as sent, the full parsed result, the tier. */
export type SearchCatalogOutput = Required<CatalogToolResult<CatalogQuery, CatalogSearchResult>>;

/** A count with its noun in the right number: `1 website`, `0 websites`, `2 clauses`. */
export const countOf = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** Cells of one line, without the empty ones, joined by a separator that costs one token. */
const cells = (...values: Array<string | undefined>) => values.filter(Boolean).join(' | ');

function priceText({ price, list_price: list, availability }: Variant): string | undefined {
  if (!price) return undefined;
  // A list price only tells the shopper something when the item is on sale.
  const sale = list && list.currency === price.currency && list.amount > price.amount;
  // Availability only when it is not plain "in stock" (the legend says so, saving tokens).
  const status = availability?.status?.replaceAll('_', ' ');
  const stock =
    status && status !== 'in stock'
      ? status
      : availability?.available === false
        ? 'out of stock'
        : undefined;
  const notes = [sale ? `was ${formatMinorUnits(list)}` : undefined, stock].filter(Boolean);
  const text = formatMinorUnits(price);
  return notes.length ? `${text} (${notes.join(', ')})` : text;
}

/**
 * The commission on a variant: the comparable catalog's `commission.percentage.value` as a
 * percentage; any other shape as JSON, so nothing the service said is hidden from the model.
 */
export function commissionText(placement: Placement | undefined): string | undefined {
  if (!placement || Object.keys(placement).length === 0) return undefined;
  const percentage = commissionPercentage(placement);
  return percentage === undefined ? `placement ${JSON.stringify(placement)}` : `${percentage}%`;
}

/** A string member of an open object (`metadata`, `placement`), if the service sent one. */
function stringMember(record: unknown, key: string): string | undefined {
  const value = isRecord(record) ? record[key] : undefined;
  return typeof value === 'string' && value ? value : undefined;
}

const linkText = (url: string | undefined, buyLinks: BuyLinkMode) =>
  url && buyLinks === 'reference' ? buyLinkReference(url) : url || undefined;

/**
 * One offer: price, retailer, website id (from the variant's open `metadata`, else its
 * placement; left out when the printed link contains it), commission and buy link.
 */
function variantCells(variant: Variant, buyLinks: BuyLinkMode): string {
  const websiteId =
    stringMember(variant.metadata, 'website_id') ?? stringMember(variant.placement, 'website_id');
  const inLink = buyLinks === 'inline' && websiteId && variant.url?.includes(websiteId);
  return cells(
    priceText(variant),
    variant.seller?.name,
    inLink ? undefined : websiteId,
    commissionText(variant.placement),
    linkText(variant.url, buyLinks),
  );
}

/** What a variant's title adds to its product's: `"Trail Runner - Red"` adds `"Red"`. */
function ownTitle(product: Product, variant: Variant): string | undefined {
  const title = variant.title?.trim();
  if (!title || title === product.title || /^default( title)?$/i.test(title)) return undefined;
  if (!title.startsWith(product.title)) return title;
  return title.slice(product.title.length).replace(/^[\s\-–—:,/|]+/, '') || undefined;
}

function productLines(product: Product, buyLinks: BuyLinkMode): string[] {
  // The ids clauses can select a product by: its own and its brand's.
  const head = cells(product.title, product.id, stringMember(product.metadata, 'brand_id'));
  const [only, ...rest] = product.variants;
  if (!only) {
    const range = product.price_range;
    const [min, max] = range ? [formatMinorUnits(range.min), formatMinorUnits(range.max)] : [];
    const price = min === max ? min : `${min} to ${max}`;
    return [cells(head, price, linkText(product.url, buyLinks))];
  }
  if (rest.length === 0)
    return [cells(head, ownTitle(product, only), variantCells(only, buyLinks))];
  const offers = product.variants.map(
    (variant) => `- ${cells(ownTitle(product, variant), variantCells(variant, buyLinks))}`,
  );
  return [head, ...offers];
}

/** How to read the view: said once in the tool description instead of in every result. */
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
  messages: CatalogSearchResult['messages'] = [],
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

/** Products, with a category line whenever the category changes (results mostly share one). */
export function productSection(products: readonly Product[], buyLinks: BuyLinkMode): string[] {
  let category = '';
  return products.flatMap((product) => {
    const next = (product.categories ?? []).map((item) => item.value).join(', ');
    const heading = next && next !== category ? [`Category ${next}:`] : [];
    category = next || category;
    return [...heading, ...productLines(product, buyLinks)];
  });
}

/**
 * The compact, faithful view of a catalog search for the model (see {@link catalogViewLegend});
 * descriptions, media, options and unknown fields stay in the application's full result.
 */
export function formatCatalogResult(
  { request, response, tier }: SearchCatalogOutput,
  buyLinks: BuyLinkMode = 'reference',
): string {
  const { products, pagination } = response;
  const count = products.length;
  const total = pagination?.total_count;
  const found =
    total === undefined ? countOf(count, 'product') : `${count} of ${countOf(total, 'product')}`;
  const footer =
    pagination?.has_next_page && pagination.cursor
      ? [`Next page: the same query with cursor "${pagination.cursor}".`]
      : count === 0
        ? ['Nothing matched; try broader or different words.']
        : [];
  return [
    `${found} for "${request.query}".`,
    ...noticeLines(tier, response.messages, Boolean(request.placements?.length)),
    ...productSection(products, buyLinks),
    ...footer,
  ].join('\n');
}
