import { readOffers, readWebsites, type SeenOffer, type SeenWebsite } from './model-view.js';
import { formatMoney } from './money.js';
import { parseShoppingRequest, type ShoppingRequest } from './request.js';
import type {
  PlannedStep,
  PlannedToolCall,
  ShopperTranscript,
  ToolObservation,
} from './transcript.js';

/** A commission rate at or above this is "good" for the shopper's request. */
export const GOOD_COMMISSION_PERCENT = 5;
/** How many products the shopper asks the catalog for. */
const CATALOG_PAGE = 10;
/** At most this many retailers are looked up, so one step stays a handful of calls. */
const MAX_RETAILER_LOOKUPS = 4;

/** An offer the shopper picked, with the retailer's website as found by website search. */
export interface PickedOffer extends SeenOffer {
  website: SeenWebsite;
}

const callTools = (...calls: PlannedToolCall[]): PlannedStep => ({ kind: 'tool-calls', calls });
const answer = (text: string): PlannedStep => ({ kind: 'answer', text });

function lastObservation(
  transcript: ShopperTranscript,
  toolName: string,
): ToolObservation | undefined {
  return [...transcript.observations]
    .reverse()
    .find((observation) => observation.toolName === toolName);
}

function observationsAfter(
  transcript: ShopperTranscript,
  after: ToolObservation,
  toolName: string,
): ToolObservation[] {
  const start = transcript.observations.indexOf(after);
  return transcript.observations
    .slice(start + 1)
    .filter((observation) => observation.toolName === toolName);
}

/**
 * The catalog query in the shopper's words: the product, the budget and the country, as a
 * model would write it ("trail running shoes under $120 in GB"), so results and commission
 * rates fit the request.
 */
function catalogQueryOf(request: ShoppingRequest): string {
  const budget =
    request.maxPriceMinor === undefined ? '' : ` under $${request.maxPriceMinor / 100}`;
  const country = request.country === undefined ? '' : ` in ${request.country}`;
  return `${request.productQuery}${budget}${country}`;
}

function searchCatalogCall(request: ShoppingRequest): PlannedToolCall {
  return {
    toolName: 'search_catalog',
    input: {
      query: catalogQueryOf(request),
      limit: CATALOG_PAGE,
      cursor: null,
      placements: ['affiliate'],
    },
  };
}

function websiteLookupCall(retailer: string, request: ShoppingRequest): PlannedToolCall {
  return {
    toolName: 'search_websites',
    input: { query: retailer, limit: 3, category_ids: null, country: request.country ?? null },
  };
}

function updateCollectionCall(collectionId: string, picks: PickedOffer[]): PlannedToolCall {
  const productIds = [...new Set(picks.map((pick) => pick.productId))];
  return {
    toolName: 'update_collection',
    input: {
      collection_id: collectionId,
      name: null,
      description: null,
      add_clauses: [{ brand_ids: [], website_ids: [], category_ids: [], product_ids: productIds }],
      replace_clauses: null,
      remove_clause_ids: null,
    },
  };
}

/** In stock (or not said otherwise), with a price, and within the budget when one is given. */
function affordableOffers(offers: SeenOffer[], request: ShoppingRequest): SeenOffer[] {
  return offers.filter((offer) => {
    if (offer.available === false || !offer.price) return false;
    if (request.maxPriceMinor === undefined) return true;
    // The request's budget is in dollars; a price in another currency cannot be compared.
    return offer.price.currency === 'USD' && offer.price.amount <= request.maxPriceMinor;
  });
}

/**
 * Retailers of the offers paying the most commission (then the cheapest), so the lookups
 * confirm the rates of the likeliest picks; offers without commission data come last.
 */
function retailersToLookUp(offers: SeenOffer[]): string[] {
  const ranked = [...offers].sort(
    (a, b) =>
      (b.commissionPercent ?? -1) - (a.commissionPercent ?? -1) ||
      (a.price?.amount ?? 0) - (b.price?.amount ?? 0),
  );
  const names = ranked.flatMap((offer) => (offer.retailer ? [offer.retailer] : []));
  return [...new Set(names)].slice(0, MAX_RETAILER_LOOKUPS);
}

const squashed = (text: string): string =>
  text
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]/g, '');

/** "https://www.fell-and-trail.co.uk/x" to "fellandtrailcouk"'s first label, "fellandtrail". */
function siteLabel(url: string): string {
  const host = /^https?:\/\/([^/?#]+)/i.exec(url)?.[1] ?? url;
  return squashed(host.replace(/^www\./i, '').split('.')[0] ?? '');
}

/**
 * The website a lookup found for an offer's retailer: the one whose domain is the
 * retailer's name, else one whose address contains it, else the most relevant.
 */
function websiteFor(offer: SeenOffer, lookup: ToolObservation): SeenWebsite | undefined {
  const websites = readWebsites(lookup.text);
  const name = squashed(offer.retailer ?? '');
  return (
    websites.find((website) => siteLabel(website.url) === name) ??
    websites.find((website) => squashed(website.url).includes(name)) ??
    websites[0]
  );
}

/** The successful lookup whose query was this retailer's name. */
function lookupFor(offer: SeenOffer, lookups: ToolObservation[]): ToolObservation | undefined {
  return lookups.find(
    (lookup) =>
      lookup.outcome === 'result' &&
      (lookup.input as { query?: unknown } | undefined)?.query === offer.retailer,
  );
}

/**
 * The best offers: at retailers paying a good commission in the shopper's country, highest
 * commission first, then cheapest; one offer per product.
 */
export function pickBestOffers(
  offers: SeenOffer[],
  lookups: ToolObservation[],
  count: number,
): PickedOffer[] {
  const eligible = offers.flatMap((offer) => {
    const lookup = lookupFor(offer, lookups);
    const website = lookup ? websiteFor(offer, lookup) : undefined;
    return website && website.commissionPercent >= GOOD_COMMISSION_PERCENT
      ? [{ ...offer, website }]
      : [];
  });
  eligible.sort(
    (a, b) =>
      b.website.commissionPercent - a.website.commissionPercent ||
      (a.price?.amount ?? 0) - (b.price?.amount ?? 0),
  );
  const picks: PickedOffer[] = [];
  for (const offer of eligible) {
    if (picks.length === count) break;
    if (!picks.some((pick) => pick.productId === offer.productId)) picks.push(offer);
  }
  return picks;
}

function pickLine(pick: PickedOffer, index: number, request: ShoppingRequest): string {
  const price = pick.price ? formatMoney(pick.price) : 'price not shown';
  const where = request.country ? ` in ${request.country}` : '';
  return [
    `${index + 1}. ${pick.productTitle} (${pick.productId}), ${price} at ${pick.retailer}`,
    `   ${pick.website.commissionPercent}% commission${where}; buy: ${pick.buyUrl ?? 'no buy link shown'}`,
  ].join('\n');
}

function budgetText(request: ShoppingRequest): string {
  return request.maxPriceMinor === undefined
    ? ''
    : ` under ${formatMoney({ amount: request.maxPriceMinor, currency: 'USD' })}`;
}

function finalAnswer(
  picks: PickedOffer[],
  update: ToolObservation,
  request: ShoppingRequest,
): string {
  const lines = picks.map((pick, index) => pickLine(pick, index, request));
  const where = request.collectionId ?? 'your collection';
  if (update.outcome === 'denied') {
    return [
      `Here are my picks; the update was not approved, so I did not change ${where}:`,
      ...lines,
    ].join('\n');
  }
  if (update.outcome === 'error') {
    return [`Here are my picks, but I could not update ${where}: ${update.text}`, ...lines].join(
      '\n',
    );
  }
  return [`I added these to ${where}:`, ...lines].join('\n');
}

/**
 * Decides the scripted shopper's next step from the conversation so far: search the
 * catalog, look up the retailers of the affordable offers for their commission rates, add
 * the best picks to the collection, then answer. Every decision comes from what the tools
 * returned; nothing about the catalog is known in advance.
 */
export function planNextStep(transcript: ShopperTranscript): PlannedStep {
  const request = parseShoppingRequest(transcript.request);
  const catalog = lastObservation(transcript, 'search_catalog');
  if (!catalog) return callTools(searchCatalogCall(request));
  if (catalog.outcome !== 'result')
    return answer(`I could not search the catalog: ${catalog.text}`);

  const offers = affordableOffers(readOffers(catalog.text), request);
  if (offers.length === 0) {
    return answer(`I found no ${request.productQuery}${budgetText(request)} in stock.`);
  }
  const lookups = observationsAfter(transcript, catalog, 'search_websites');
  if (lookups.length === 0) {
    const retailers = retailersToLookUp(offers);
    if (retailers.length === 0)
      return answer('The catalog did not say which retailers sell these offers.');
    return callTools(...retailers.map((retailer) => websiteLookupCall(retailer, request)));
  }

  const picks = pickBestOffers(offers, lookups, request.count);
  if (picks.length === 0) {
    return answer(
      `None of the retailers selling ${request.productQuery}${budgetText(request)} pays a commission of ${GOOD_COMMISSION_PERCENT}% or more.`,
    );
  }
  const update = lastObservation(transcript, 'update_collection');
  if (update) return answer(finalAnswer(picks, update, request));
  if (!request.collectionId) {
    return answer(
      [
        'Here are my picks. Tell me the id of the collection to add them to.',
        ...picks.map((pick, index) => pickLine(pick, index, request)),
      ].join('\n'),
    );
  }
  return callTools(updateCollectionCall(request.collectionId, picks));
}
