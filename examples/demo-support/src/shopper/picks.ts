/**
 * Which offers the scripted shopper looks into and which it picks, from what the tools
 * showed the model: affordable offers, their retailers' commission rates in the shopper's
 * country, and the best of them.
 */
import { readWebsites, type SeenOffer, type SeenWebsite } from './model-view.js';
import type { ShoppingRequest } from './request.js';
import type { ToolObservation } from './transcript.js';

/** A commission rate at or above this is "good" for the shopper's request. */
export const GOOD_COMMISSION_PERCENT = 5;
/** At most this many retailers are looked up, so one step stays a handful of calls. */
const MAX_RETAILER_LOOKUPS = 4;

/** An offer the shopper picked, with the retailer's website as found by website search. */
export interface PickedOffer extends SeenOffer {
  website: SeenWebsite;
}

/** In stock (or not said otherwise), with a price, and within the budget when one is given. */
export function affordableOffers(offers: SeenOffer[], request: ShoppingRequest): SeenOffer[] {
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
export function retailersToLookUp(offers: SeenOffer[]): string[] {
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
 * The website a lookup found for an offer's retailer. An offer that shows its website id
 * matches only that website: a similarly named retailer's rate must not pass for its own.
 * Without an id: the website named like the retailer, else the one whose domain is the
 * retailer's name, else one whose address contains it, else the most relevant.
 */
function websiteFor(offer: SeenOffer, lookup: ToolObservation): SeenWebsite | undefined {
  const websites = readWebsites(lookup.text);
  if (offer.websiteId !== undefined)
    return websites.find((website) => website.websiteId === offer.websiteId);
  const name = squashed(offer.retailer ?? '');
  return (
    websites.find((website) => website.name !== undefined && squashed(website.name) === name) ??
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
