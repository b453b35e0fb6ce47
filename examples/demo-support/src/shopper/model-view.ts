/**
 * Reading tool results the way a model sees them: the compact text lines the catalog
 * tools give the model (`toModelOutput`), not the application's structured results. The
 * scripted shopper decides from this text only, as a real model would.
 */

/** One retailer's offer of a product, as read from a `search_catalog` result. */
export interface SeenOffer {
  productId: string;
  productTitle: string;
  /** Price in minor units, with its currency. */
  price?: { amount: number; currency: string };
  /** False when the line says out of stock or backorder. */
  available?: boolean;
  /** Retailer name: the cell right after the price. */
  retailer?: string;
  /** The retailer's website id, when the line shows one (the cell right after the retailer). */
  websiteId?: string;
  /** Commission percentage from the variant's placement data, when shown. */
  commissionPercent?: number;
  /**
   * The buy link as printed, which the shopper writes where the link goes: its reference
   * (`[[buy:123456789]]`, the default) or, with `buyLinks: 'inline'`, the link byte for byte.
   */
  buyUrl?: string;
}

/** One website line of a `search_websites` result. */
export interface SeenWebsite {
  websiteId: string;
  /** The retailer's name, when the service sends one (the cell before the address). */
  name?: string;
  url: string;
  /** Best commission rate in the searched country, as a percentage. */
  commissionPercent: number;
}

const CELL_SEPARATOR = ' | ';

function cellsOf(line: string): string[] {
  return line.split(CELL_SEPARATOR).map((cell) => cell.trim());
}

function valueAfter(cells: string[], label: string): string | undefined {
  const cell = cells.find((candidate) => candidate.startsWith(`${label} `));
  return cell?.slice(label.length + 1).trim();
}

/** Currency symbols as English formatting prints them ("$129.99", "CA$129.99", "€129.99"). */
const CURRENCY_SYMBOLS: Readonly<Record<string, string>> = {
  $: 'USD',
  US$: 'USD',
  CA$: 'CAD',
  A$: 'AUD',
  '€': 'EUR',
  '£': 'GBP',
  '¥': 'JPY',
};

const SYMBOL_PRICE = /^([^\d\s|]{1,3})(\d[\d,]*)(?:\.(\d+))?(?:\s|$)/;
const CODE_PRICE = /^(\d[\d,]*)(?:\.(\d+))? ([A-Z]{3})(?:\s|$)/;

const minorUnits = (whole: string, fraction: string): number =>
  Number(`${whole.replace(/,/g, '')}${fraction}`);

/** "$119.99", "$119.99 (was $149.99) (backorder)" or "119.99 USD" to minor units. */
function priceOf(cell: string): SeenOffer['price'] {
  const symbol = SYMBOL_PRICE.exec(cell);
  const currency = symbol ? CURRENCY_SYMBOLS[symbol[1] ?? ''] : undefined;
  if (symbol && currency)
    return { amount: minorUnits(symbol[2] ?? '0', symbol[3] ?? ''), currency };
  const code = CODE_PRICE.exec(cell);
  if (code) return { amount: minorUnits(code[1] ?? '0', code[2] ?? ''), currency: code[3] ?? '' };
  return undefined;
}

const UNAVAILABLE = /\b(out of stock|backorder|unavailable|sold out|discontinued)\b/i;
const COMMISSION = /^(\d+(?:\.\d+)?)%$/;
const isUrl = (cell: string): boolean => /^https?:\/\//.test(cell);
/** A buy link cell: the link itself, or its reference. */
const isBuyLink = (cell: string): boolean => isUrl(cell) || /^\[\[buy:\d+\]\]$/.test(cell);
/** A retailer name or website id, not a commission or a link. */
const isWord = (cell: string | undefined): cell is string =>
  cell !== undefined && !isBuyLink(cell) && !COMMISSION.test(cell);
/** Ids have no spaces; a retailer's name may. */
const isId = (cell: string | undefined): cell is string => isWord(cell) && !/\s/.test(cell);

function percentOf(text: string | undefined): number | undefined {
  const match = text === undefined ? null : /^(\d+(?:\.\d+)?)%/.exec(text);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/**
 * The facts of one offer, recognised by what each cell looks like rather than by position
 * (empty cells are left out of the lines, which shifts positions): the price, then the
 * retailer right after it and its website id after that, a bare percentage as the
 * commission, and the link.
 */
function offerCells(cells: string[]): Omit<SeenOffer, 'productId' | 'productTitle'> {
  const priceIndex = cells.findIndex((cell) => priceOf(cell) !== undefined);
  const priceCell = cells[priceIndex];
  const price = priceCell === undefined ? undefined : priceOf(priceCell);
  const afterPrice = priceIndex < 0 ? undefined : cells[priceIndex + 1];
  const retailer = isWord(afterPrice) ? afterPrice : undefined;
  const afterRetailer = retailer === undefined ? undefined : cells[priceIndex + 2];
  const websiteId = isId(afterRetailer) ? afterRetailer : undefined;
  const commissionPercent = percentOf(cells.find((cell) => COMMISSION.test(cell)));
  const buyUrl = cells.find(isBuyLink);
  return {
    ...(price === undefined ? {} : { price }),
    ...(priceCell === undefined ? {} : { available: !UNAVAILABLE.test(priceCell) }),
    ...(retailer === undefined ? {} : { retailer }),
    ...(websiteId === undefined ? {} : { websiteId }),
    ...(commissionPercent === undefined ? {} : { commissionPercent }),
    ...(buyUrl === undefined ? {} : { buyUrl }),
  };
}

/** "Products: \"title | product_id\" ..." and similar: the legend, not a product. */
const isLegend = (line: string): boolean => /^[A-Z][\w ]*:\s/.test(line) && line.includes('"');

/** `title | product_id | ...` (optionally numbered "N. "), with an id that has no spaces. */
function productLine(
  line: string,
): { productId: string; productTitle: string; rest: string[] } | undefined {
  if (isLegend(line) || line.startsWith('-')) return undefined;
  const [first = '', productId = '', ...rest] = cellsOf(line);
  if (!productId || /\s/.test(productId)) return undefined;
  return { productId, productTitle: first.replace(/^\d+\.\s+/, ''), rest };
}

/**
 * Offers in a catalog result. A product line is `title | product_id | ...`; its offers are
 * either on the same line or on the `- ...` lines under it.
 */
export function readOffers(text: string): SeenOffer[] {
  const offers: SeenOffer[] = [];
  let product: { productId: string; productTitle: string } | undefined;
  for (const line of text.split('\n')) {
    const offer = /^\s*-\s+(.*)$/.exec(line);
    if (offer?.[1] !== undefined) {
      if (product) offers.push({ ...product, ...offerCells(cellsOf(offer[1])) });
      continue;
    }
    const head = productLine(line);
    product = head && { productId: head.productId, productTitle: head.productTitle };
    if (head && product && head.rest.some((cell) => priceOf(cell) !== undefined)) {
      offers.push({ ...product, ...offerCells(head.rest) });
    }
  }
  return offers;
}

/** A website's id: labelled ("website_id web_1") or the bare token after its address. */
function websiteIdOf(cells: string[], urlIndex: number): string | undefined {
  const labelled = valueAfter(cells, 'website_id');
  if (labelled) return labelled;
  const next = cells[urlIndex + 1];
  return next && !/[\s%]/.test(next) ? next : undefined;
}

/**
 * Websites in a website search result, one per line: its name when sent, its address, its id
 * and its best commission rate (`[NAME | ]URL | website_id ID | best commission R%`, labels
 * optional).
 */
export function readWebsites(text: string): SeenWebsite[] {
  const websites: SeenWebsite[] = [];
  for (const line of text.split('\n')) {
    const cells = cellsOf(line.replace(/^\d+\.\s+/, ''));
    const urlIndex = cells.findIndex(isUrl);
    const url = cells[urlIndex];
    const websiteId = websiteIdOf(cells, urlIndex);
    if (url === undefined || websiteId === undefined) continue;
    const name = urlIndex > 0 ? cells[urlIndex - 1] : undefined;
    const rate = cells
      .map((cell) => /(\d+(?:\.\d+)?)%/.exec(cell)?.[1])
      .find((value) => value !== undefined);
    websites.push({
      websiteId,
      ...(name ? { name } : {}),
      url,
      commissionPercent: rate === undefined ? 0 : Number(rate),
    });
  }
  return websites;
}
