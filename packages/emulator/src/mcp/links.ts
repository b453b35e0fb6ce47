import type { CountryCode } from '@catalogkit/core';
import { COUNTRY_CODES, type PlacementCommission } from '@catalogkit/core/schemas';
import type { CatalogData, VariantRecord } from '../data/index.js';

/** Host of the emulator's click-tracking links. */
export const TRACKING_ORIGIN = 'https://go.catalogkit.test';

/** FNV-1a, as a short stable signature: tracking links must not change between runs. */
function signature(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

/**
 * The monetized buy link: a tracking URL wrapping the retailer link. The wrapped link is
 * percent-encoded (`%2F`, `%3F`, `%26`, `%2B`) and the campaign carries a `+`, so a client
 * that decodes, re-encodes or normalizes the URL visibly breaks it. The publisher id, not
 * the API key, identifies the account.
 */
export function monetizedUrl(variant: VariantRecord, publisherId: string): string {
  const target = encodeURIComponent(variant.url);
  const sig = signature(`${publisherId}|${variant.url}`);
  return `${TRACKING_ORIGIN}/r/${variant.metadata.website_id}?pub=${publisherId}&campaign=agent+search&u=${target}&sig=${sig}`;
}

/**
 * Commission data for `variants[].placement`, scoped to the shopper's country when the
 * query names one, else to the seller's home country.
 */
export function placementFor(
  data: CatalogData,
  variant: VariantRecord,
  shopperCountry?: CountryCode,
): Record<string, unknown> {
  const website = data.websiteById.get(variant.metadata.website_id);
  const country = shopperCountry ?? variant.metadata.seller_country;
  const rate = website?.commission[COUNTRY_CODES.indexOf(country as CountryCode)] ?? 0;
  return {
    type: 'affiliate',
    placement_id: `plc_${variant.id}`,
    website_id: variant.metadata.website_id,
    country,
    commission: { percentage: { value: rate }, model: 'cps' } satisfies PlacementCommission,
  };
}
