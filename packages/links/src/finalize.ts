import {
  type BuyLinkReferences,
  type BuyLinkResolution,
  type ResolveBuyLinksOptions,
  referencesOf,
  resolveWith,
} from './references.js';
import type { BuyLinkSources } from './sources.js';
import { type BuyLinkVerification, verifyBuyLinks } from './verify.js';

/** Options of {@link finalizeBuyLinks}. */
export type FinalizeBuyLinksOptions = ResolveBuyLinksOptions;

/** An answer with its references resolved, and the verification of the result. */
export interface FinalizedBuyLinks extends BuyLinkResolution, Omit<BuyLinkVerification, 'ok'> {
  /** True when no reference is unresolved, there is no raw HTML, every link is verified. */
  ok: boolean;
}

/**
 * One call for a finished answer in either mode: resolves references ({@link resolveBuyLinks}),
 * then verifies the result ({@link verifyBuyLinks}), each resolved link judged in its place (in
 * raw HTML it is raw HTML, never verified). Show `text` with `renderAnswerHtml` or `rehypeBuyLinks`.
 */
export function finalizeBuyLinks(
  text: string,
  toolResults: BuyLinkSources | BuyLinkReferences,
  options: FinalizeBuyLinksOptions = {},
): FinalizedBuyLinks {
  const references = referencesOf(toolResults, options);
  const resolution = resolveWith(text, references, options);
  const verification = verifyBuyLinks(resolution.text, references);
  return {
    ...resolution,
    verified: verification.verified,
    issues: verification.issues,
    ok: verification.ok && resolution.unresolved.length === 0,
  };
}
