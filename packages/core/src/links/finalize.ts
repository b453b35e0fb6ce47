import type { BuyLinkSources } from './buy-links.js';
import type { FoundUrl } from './find-urls.js';
import type { BuyLinkResolution } from './resolve.js';
import { BuyLinkReferences, type ResolveBuyLinksOptions, resolveWith } from './resolve.js';
import { type BuyLinkIssue, repairBuyLinks } from './verify.js';

/** Options of {@link finalizeBuyLinks}. */
export interface FinalizeBuyLinksOptions extends ResolveBuyLinksOptions {
  /** Replace corrupted copies of buy links with the true link when one is clearly meant. Default `true`. */
  repair?: boolean;
}

/** An answer made safe to show: references resolved, corrupted links repaired or reported. */
export interface FinalizedBuyLinks extends Omit<BuyLinkResolution, 'text'> {
  /** The answer to show the shopper. */
  text: string;
  /** True when nothing is left to look at: no unresolved reference and no unrepaired link. */
  ok: boolean;
  /** Corrupted links replaced by their true link (offsets in the text after resolving). */
  repaired: BuyLinkIssue[];
  /** URLs that resemble buy links without a clear match, left as written. */
  unrepaired: BuyLinkIssue[];
  /** URLs that resemble no buy link, left as written. */
  otherUrls: FoundUrl[];
}

/**
 * One call for a finished answer in either mode: resolves buy link references
 * ({@link resolveBuyLinks}), then verifies every URL and repairs corrupted copies of buy links
 * ({@link repairBuyLinks}). Resolved links are true links, so they always verify.
 */
export function finalizeBuyLinks(
  text: string,
  toolOutputs: BuyLinkSources | BuyLinkReferences,
  options: FinalizeBuyLinksOptions = {},
): FinalizedBuyLinks {
  const references =
    toolOutputs instanceof BuyLinkReferences ? toolOutputs : new BuyLinkReferences(toolOutputs);
  const resolution = resolveWith(text, references, options);
  const outputs = references.outputs();
  const repair = repairBuyLinks(resolution.text, outputs);
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
