import type { CatalogCallOptions, CatalogClient, CatalogLookupResponse } from '@catalogkit/core';
import { RequestValidationError } from '@catalogkit/core/errors';
import { CATALOG_LOOKUP_MAX, LOOKUP_CATALOG_TOOL } from '@catalogkit/core/schemas';
import { buyLinkReference, productOffers } from '@catalogkit/core/tools';
import { BuyLinkReferences, resolveWith } from './references.js';
import {
  type BuyLinkSources,
  type BuyLinkTrustOptions,
  catalogProducts,
  catalogResultProducts,
} from './sources.js';

/** What {@link refreshBuyLinks} needs of a client: its catalog's discovery and lookup. */
export interface BuyLinkRefreshClient {
  readonly catalog: Pick<CatalogClient['catalog'], 'tools' | 'lookup'>;
}

/** A stored answer: the model's text (with `[[buy:…]]` references) and the tool results it came from. */
export interface StoredAnswer {
  /** The model's text as stored, before `finalizeBuyLinks`; omit to refresh every product of the results. */
  text?: string;
  /** The tool results of the turn that produced it ({@link BuyLinkSources}). */
  toolResults: BuyLinkSources;
}

/** One offer the answer showed: its product, its offer (variant) id, the buy link stored with it. */
export interface ShownOffer {
  productId: string;
  /** The variant's id; undefined when the product itself is the offer (no variants). */
  offerId: string | undefined;
  /** The stored buy link (never shown again once refreshed or gone). */
  stored: string;
}

/**
 * Why an offer lost its link: `not_found` (the service no longer knows the product),
 * `offer_gone` (the product is known, that offer is not in it), `lookup_unavailable` (the
 * service does not list `lookup_catalog`, so nothing could be checked).
 */
export type GoneReason = 'not_found' | 'offer_gone' | 'lookup_unavailable';

/** An offer whose link was dropped, and why. */
export interface GoneBuyLink extends ShownOffer {
  reason: GoneReason;
}

/** Options of {@link refreshBuyLinks}: which results are trusted, the call's options, the text of a gone link. */
export interface RefreshBuyLinksOptions extends BuyLinkTrustOptions, CatalogCallOptions {
  /** What replaces the reference of a gone offer (default `(no longer available)`); never a URL. */
  unavailable?: (gone: GoneBuyLink) => string;
}

/** A stored answer with fresh buy links: pass `text` and `sources` to `finalizeBuyLinks`. */
export interface RefreshedBuyLinks {
  /** `lookup_unavailable` when the service does not list `lookup_catalog` (every shown link is then gone). */
  status: 'refreshed' | 'lookup_unavailable';
  /** The text with each shown offer's reference renamed to its fresh link's, or replaced when gone. */
  text: string;
  /** The lookup's result as a trusted tool result (none when nothing was looked up): the only links to show. */
  sources: Array<{ toolName: typeof LOOKUP_CATALOG_TOOL; output: LookupOutput }>;
  /** Offers with a fresh link: the stored link and the one the service gave now, byte for byte. */
  refreshed: Array<ShownOffer & { fresh: string }>;
  /** Offers that lost their link. */
  gone: GoneBuyLink[];
}

/** `lookup_catalog`'s tool output shape, as the built-in tool returns it. */
interface LookupOutput {
  request: { ids: string[] };
  response: CatalogLookupResponse['result'];
  tier: CatalogLookupResponse['tier'];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Identity of an offer across calls: the product's id and the variant's (links change, ids do not). */
const offerKey = (productId: string, offerId: string | undefined) =>
  `${productId}\n${offerId ?? ''}`;

/** Each offer of some products by its stored buy link, and by its key. */
function offersOf(products: Iterable<unknown>): Map<string, ShownOffer> {
  const byLink = new Map<string, ShownOffer>();
  for (const product of products) {
    if (!isRecord(product) || typeof product.id !== 'string') continue;
    for (const { offer, link } of productOffers(product)) {
      if (link === undefined || byLink.has(link)) continue;
      const offerId = offer === product || typeof offer.id !== 'string' ? undefined : offer.id;
      byLink.set(link, { productId: product.id, offerId, stored: link });
    }
  }
  return byLink;
}

/** The offers the text's references name (as `resolveBuyLinks` reads them), or every offer without text. */
function shownOffers(
  text: string | undefined,
  references: BuyLinkReferences,
  stored: Map<string, ShownOffer>,
): ShownOffer[] {
  if (text === undefined) return [...stored.values()];
  const named = resolveWith(text, references).resolved.map(({ link }) => stored.get(link));
  return [...new Set(named)].filter((offer) => offer !== undefined);
}

/** The digits of a link's reference. */
const idOf = (link: string) => buyLinkReference(link).slice(6, -2);

/**
 * Refreshes the buy links of a stored answer before it is shown again (chat history: the
 * service's offer links are short-lived). Reads the products the answer shows (those its
 * `[[buy:…]]` references name in `toolResults`, or all of them without `text`) in one
 * `lookup_catalog` call, then renames each reference to its offer's fresh link (same product
 * and variant id), taken verbatim from the service. An offer the service no longer has loses
 * its link: its reference becomes text (`unavailable`), never the stale URL. Finish with
 * `finalizeBuyLinks(refreshed.text, refreshed.sources)`: only fresh links are trusted, so a
 * stored link left inline in the text is no longer verified, and renderers show it as text.
 *
 * @returns `status: 'lookup_unavailable'` (every shown link gone) when the service does not
 *   list `lookup_catalog`; no call is made when the answer shows no offer.
 * @throws RequestValidationError naming `catalog.ids` when the answer shows more than
 *   `CATALOG_LOOKUP_MAX` (50) products, before anything is sent; the client's errors otherwise.
 * @example
 * const fresh = await refreshBuyLinks(client, { text: stored.text, toolResults: stored.toolResults });
 * const { text, ok } = finalizeBuyLinks(fresh.text, fresh.sources);
 */
export async function refreshBuyLinks(
  client: BuyLinkRefreshClient,
  answer: StoredAnswer,
  options: RefreshBuyLinksOptions = {},
): Promise<RefreshedBuyLinks> {
  const { unavailable = () => '(no longer available)', catalogToolNames, ...call } = options;
  const trust = { catalogToolNames };
  const stored = offersOf(catalogProducts(answer.toolResults, trust));
  const shown = shownOffers(answer.text, new BuyLinkReferences(answer.toolResults, trust), stored);
  const ids = [...new Set(shown.map((offer) => offer.productId))];
  if (ids.length > CATALOG_LOOKUP_MAX) {
    throw new RequestValidationError('refreshBuyLinks', [
      {
        path: 'catalog.ids',
        message: `at most ${CATALOG_LOOKUP_MAX} products per refresh (one lookup_catalog call); the answer shows ${ids.length}`,
      },
    ]);
  }
  const out: RefreshedBuyLinks = {
    status: 'refreshed',
    text: '',
    sources: [],
    refreshed: [],
    gone: [],
  };
  let fresh = new Map<string, string>();
  let notFound = new Set<string>();
  if (ids.length > 0) {
    const tools = await client.catalog.tools(call.signal ? { signal: call.signal } : {});
    if (!tools.includes(LOOKUP_CATALOG_TOOL)) out.status = 'lookup_unavailable';
    else {
      const request = { ids };
      const { result, tier } = await client.catalog.lookup(request, call);
      out.sources.push({
        toolName: LOOKUP_CATALOG_TOOL,
        output: { request, response: result, tier },
      });
      fresh = new Map(
        [...offersOf(catalogResultProducts(result) ?? []).values()].map((o) => [
          offerKey(o.productId, o.offerId),
          o.stored,
        ]),
      );
      notFound = new Set(
        (result.messages ?? []).filter((m) => m.code === 'not_found').map((m) => m.content),
      );
    }
  }
  const replacement = new Map<string, string>();
  for (const offer of shown) {
    const link = fresh.get(offerKey(offer.productId, offer.offerId));
    if (link !== undefined) {
      out.refreshed.push({ ...offer, fresh: link });
      replacement.set(idOf(offer.stored), buyLinkReference(link));
      continue;
    }
    const reason: GoneReason =
      out.status === 'lookup_unavailable'
        ? 'lookup_unavailable'
        : notFound.has(offer.productId)
          ? 'not_found'
          : 'offer_gone';
    const gone = { ...offer, reason };
    out.gone.push(gone);
    replacement.set(idOf(offer.stored), unavailable(gone));
  }
  if (answer.text !== undefined) {
    const renamed = {
      linksOf: (id: string) => (replacement.has(id) ? [replacement.get(id)!] : []),
    };
    out.text = resolveWith(answer.text, renamed).text;
  }
  return out;
}
