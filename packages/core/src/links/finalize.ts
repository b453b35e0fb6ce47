import type { BuyLinkSources } from './buy-links.js';
import type { FoundUrl } from './find-urls.js';
import type { BuyLinkResolution } from './resolve.js';
import { BuyLinkReferences, type ResolveBuyLinksOptions, resolveWith } from './resolve.js';
import { type BuyLinkCheckOptions, type BuyLinkIssue, repairBuyLinks } from './verify.js';

/** Options of {@link finalizeBuyLinks}. */
export interface FinalizeBuyLinksOptions extends ResolveBuyLinksOptions, BuyLinkCheckOptions {
  /** Replace corrupted copies of buy links with the true link when one is clearly meant. Default `true`. */
  repair?: boolean;
}

/** An answer made safe to show: references resolved, corrupted links repaired or reported. */
export interface FinalizedBuyLinks extends Omit<BuyLinkResolution, 'text'> {
  /** The answer to show the shopper. */
  text: string;
  /**
   * True when nothing is left to look at: no unresolved reference, and every link a shopper
   * could follow is a verified buy link (after repair) or allowed.
   */
  ok: boolean;
  /** Corrupted links replaced by their true link (offsets in the text after resolving). */
  repaired: BuyLinkIssue[];
  /** Links neither verified, repaired nor allowed, left as written. */
  unrepaired: BuyLinkIssue[];
  /** Links that are not buy links but are allowed, left as written. */
  otherUrls: FoundUrl[];
}

/**
 * One call for a finished answer in either mode: resolves buy link references
 * ({@link resolveBuyLinks}), then checks every link and repairs corrupted copies of buy
 * links ({@link repairBuyLinks}). A reference resolves only to a link of a trusted catalog
 * result, and a resolved link is judged in its place like any other (a reference inside
 * `//evil.example/…` makes a foreign link, not a verified one).
 */
export function finalizeBuyLinks(
  text: string,
  toolResults: BuyLinkSources | BuyLinkReferences,
  options: FinalizeBuyLinksOptions = {},
): FinalizedBuyLinks {
  const references =
    toolResults instanceof BuyLinkReferences
      ? toolResults
      : new BuyLinkReferences(toolResults, options);
  const resolution = resolveWith(text, references, options);
  const repair = repairBuyLinks(resolution.text, references, options);
  const repairing = options.repair ?? true;
  return {
    text: repairing ? repair.text : resolution.text,
    resolved: resolution.resolved,
    unresolved: resolution.unresolved,
    repaired: repairing ? repair.repaired : [],
    unrepaired: repairing ? repair.unrepaired : [...repair.repaired, ...repair.unrepaired],
    otherUrls: repair.otherUrls,
    ok:
      resolution.unresolved.length === 0 &&
      repair.unrepaired.length === 0 &&
      (repairing || repair.repaired.length === 0),
  };
}
