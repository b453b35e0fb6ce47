import {
  type BuyLinkTrustOptions as BuyLinkCheckOptions,
  type BuyLinkSources,
  resolveBuyLinks,
  verifyBuyLinks,
} from '@catalogkit/links';
import type { CatalogService } from '../service/catalog-service.js';
import { throwIfAny } from './error.js';

/** Options of {@link assertBuyLinksVerified}. */
export interface BuyLinkAssertionOptions extends BuyLinkCheckOptions {
  /** Fewest verified buy links the answer must give (default 0). */
  atLeast?: number;
}

/** Longest link quoted whole: a buy link fits; a link in pasted text (JSON, say) is cut. */
const MAX_QUOTED = 300;
/** How much of a cut link is quoted, from its scheme. */
const CUT_TO = 160;
/** Links named one by one; past these, a count (an answer may paste thousands). */
const MAX_NAMED = 3;

/** The link as a problem quotes it: whole, or from its scheme, cut, so the report stays short. */
function quoted(url: string): string {
  if (url.length <= MAX_QUOTED) return JSON.stringify(url);
  const scheme = Math.max(0, url.search(/https?:\/\//i));
  const cut = `${scheme > 0 ? '…' : ''}${url.slice(scheme, scheme + CUT_TO)}…`;
  return `${JSON.stringify(cut)} (a link run into ${url.length} characters of other text)`;
}

/** The links that are no verified buy links: the first few named, the rest counted. */
function unverifiedProblems(issues: readonly { url: string; suggestion?: string }[]): string[] {
  const named = issues.slice(0, MAX_NAMED).map((issue) => {
    const meant = issue.suggestion ? ` (a miscopy of ${issue.suggestion})` : '';
    return `${quoted(issue.url)} is not a buy link the catalog gave${meant}`;
  });
  const more = issues.length - named.length;
  return more > 0 ? [...named, `${more} more links are not buy links the catalog gave`] : named;
}

/** Links in the answer that are not verified buy links, and references left unresolved. */
export function buyLinkProblems(
  answer: string,
  sources: BuyLinkSources,
  options: BuyLinkAssertionOptions = {},
): string[] {
  const { atLeast = 0, ...checkOptions } = options;
  const verification = verifyBuyLinks(answer, sources, checkOptions);
  const problems = unverifiedProblems(verification.issues);
  // A reference that resolves to a true link was left for the shopper to read as code.
  for (const { reference } of resolveBuyLinks(answer, sources, checkOptions).resolved) {
    problems.push(
      `${reference} is shown where its buy link belongs: the application did not resolve it (finalizeBuyLinks)`,
    );
  }
  if (verification.verified.length < atLeast) {
    problems.push(
      `the answer gives ${verification.verified.length} verified buy link${verification.verified.length === 1 ? '' : 's'}, expected at least ${atLeast}`,
    );
  }
  return problems;
}

/**
 * Throws unless every link in the final answer is a verified buy link (byte for byte a link
 * of a catalog result) or allowed, and no `[[buy:…]]` reference the application could have
 * resolved is shown in place of its link. Given a
 * {@link CatalogService}, the sources are the results the service really gave.
 *
 * @example
 * assertBuyLinksVerified(text, service, { atLeast: 1 });
 */
export function assertBuyLinksVerified(
  answer: string,
  sources: BuyLinkSources | CatalogService,
  options?: BuyLinkAssertionOptions,
): void {
  const list = 'buyLinkSources' in sources ? sources.buyLinkSources() : sources;
  throwIfAny('assertBuyLinksVerified', buyLinkProblems(answer, list, options));
}
