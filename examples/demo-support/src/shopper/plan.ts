import { formatMinorUnits } from '@catalogkit/core/tools';
import { readOffers } from './model-view.js';
import {
  affordableOffers,
  GOOD_COMMISSION_PERCENT,
  type PickedOffer,
  pickBestOffers,
  retailersToLookUp,
} from './picks.js';
import { parseShoppingRequest, type ShoppingRequest } from './request.js';
import type {
  PlannedStep,
  PlannedToolCall,
  ShopperTranscript,
  ToolObservation,
} from './transcript.js';

/** How many products the shopper asks the catalog for. */
const CATALOG_PAGE = 10;

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

function productDetailsCall(productId: string): PlannedToolCall {
  return {
    toolName: 'get_product',
    input: { product_id: productId, selected: null, preferences: null },
  };
}

/** The answer about one product: its offers as get_product showed them, links as printed. */
function productAnswer(details: ToolObservation, productId: string): string {
  if (details.outcome !== 'result') return `I could not read ${productId}: ${details.text}`;
  const offers = readOffers(details.text);
  if (offers.length === 0) return `The catalog has no offer of ${productId} now.`;
  const lines = offers.map((offer, index) => {
    const price = offer.price ? formatMinorUnits(offer.price) : 'price not shown';
    const stock = offer.available === false ? ', out of stock' : '';
    return `${index + 1}. ${price} at ${offer.retailer ?? 'a retailer'}${stock}; buy: ${offer.buyUrl ?? 'no buy link shown'}`;
  });
  return [`${offers[0]?.productTitle} (${productId}) right now:`, ...lines].join('\n');
}

function pickLine(pick: PickedOffer, index: number, request: ShoppingRequest): string {
  const price = pick.price ? formatMinorUnits(pick.price) : 'price not shown';
  const where = request.country ? ` in ${request.country}` : '';
  return [
    `${index + 1}. ${pick.productTitle} (${pick.productId}), ${price} at ${pick.retailer}`,
    `   ${pick.website.commissionPercent}% commission${where}; buy: ${pick.buyUrl ?? 'no buy link shown'}`,
  ].join('\n');
}

function budgetText(request: ShoppingRequest): string {
  return request.maxPriceMinor === undefined
    ? ''
    : ` under ${formatMinorUnits({ amount: request.maxPriceMinor, currency: 'USD' })}`;
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
 * Decides the scripted shopper's next step from the conversation so far: for a question
 * about one product (`prod_…`), read it with get_product and answer with its offers; else search the
 * catalog, look up the retailers of the affordable offers for their commission rates, add
 * the best picks to the collection, then answer. Every decision comes from what the tools
 * returned; nothing about the catalog is known in advance.
 */
export function planNextStep(transcript: ShopperTranscript): PlannedStep {
  const request = parseShoppingRequest(transcript.request);
  if (request.productId) {
    // A question about one product: its details and current offers, with get_product.
    const details = lastObservation(transcript, 'get_product');
    if (details) return answer(productAnswer(details, request.productId));
    return callTools(productDetailsCall(request.productId));
  }
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
