import { type BuyLinkSources, collectBuyLinks } from './buy-links.js';
import { type FoundUrl, findUrls } from './find-urls.js';
import { type BuyLinkMatch, nearestBuyLink } from './nearest.js';

/** A URL in an answer that is not byte-identical to any buy link of the tool outputs. */
export interface BuyLinkIssue extends FoundUrl {
  /**
   * The true buy link it most likely meant, when one is clearly nearest (see
   * {@link verifyBuyLinks}); absent when several are equally likely or none is near.
   */
  suggestion?: string;
  /** How the suggestion was found. */
  match?: BuyLinkMatch;
  /** Buy links it is about as near to, when no single one is clearly nearest. */
  candidates?: string[];
}

/** What {@link verifyBuyLinks} found in an answer. */
export interface BuyLinkVerification {
  /** True when every URL that resembles a buy link is one, byte for byte. */
  ok: boolean;
  /** URLs that are true buy links, byte for byte. */
  verified: FoundUrl[];
  /** URLs that resemble buy links but are not one: corrupted copies or invented links. */
  issues: BuyLinkIssue[];
  /** URLs that resemble no buy link (a retailer's home page, an image): not errors. */
  otherUrls: FoundUrl[];
}

/**
 * A trimmed URL may have lost punctuation that belongs to a true link (one ending in `.`):
 * the longer span wins when the text holds that link byte for byte.
 */
function widen(text: string, found: FoundUrl, links: Set<string>, list: string[]): FoundUrl {
  if (links.has(found.url)) return found;
  const whole = list.find(
    (link) => link.startsWith(found.url) && text.startsWith(link, found.start),
  );
  return whole ? { url: whole, start: found.start, end: found.start + whole.length } : found;
}

function issueOf(found: FoundUrl, links: string[]): BuyLinkIssue | undefined {
  const nearest = nearestBuyLink(found.url, links);
  if (nearest.kind === 'unrelated') return undefined;
  if (nearest.kind === 'ambiguous') return { ...found, candidates: nearest.candidates };
  return { ...found, suggestion: nearest.link, match: nearest.match };
}

/**
 * Checks every URL in a model's answer against the buy links of the tool outputs the
 * application got (`steps[].toolResults[].output` in the AI SDK, ToolMessage artifacts in
 * LangChain). URLs are found plain, in markdown, in angle brackets and before punctuation.
 *
 * A URL that is a buy link byte for byte is `verified`. One that resembles a buy link but is
 * not one is an issue, with the true link it most likely meant as `suggestion` when one is
 * clearly nearest: the only link equal once case and percent-encoding are ignored, the only
 * link it is a cut copy of, the link it starts with, or the nearest by edit distance (within
 * one edit in ten characters, with the runner-up at least twice as far and three edits
 * further). URLs that resemble no buy link (same host with a path, or within that edit
 * budget) are listed in `otherUrls` and are not errors.
 *
 * @example
 * const check = verifyBuyLinks(result.text, result.steps.flatMap((s) => s.toolResults.map((r) => r.output)));
 * if (!check.ok) console.warn(check.issues);
 */
export function verifyBuyLinks(text: string, toolOutputs: BuyLinkSources): BuyLinkVerification {
  const list = collectBuyLinks(toolOutputs);
  const links = new Set(list);
  const verification: BuyLinkVerification = { ok: true, verified: [], issues: [], otherUrls: [] };
  for (const raw of findUrls(text)) {
    const found = widen(text, raw, links, list);
    if (links.has(found.url)) {
      verification.verified.push(found);
      continue;
    }
    const issue = issueOf(found, list);
    if (issue) verification.issues.push(issue);
    else verification.otherUrls.push(found);
  }
  verification.ok = verification.issues.length === 0;
  return verification;
}

/** What {@link repairBuyLinks} did to an answer. */
export interface BuyLinkRepair {
  /** The answer with every clearly meant buy link put back byte for byte. */
  text: string;
  /** The URLs replaced (offsets are in the original text), each with its `suggestion`. */
  repaired: BuyLinkIssue[];
  /** URLs that resemble buy links but have no clear match: left as written, for you to handle. */
  unrepaired: BuyLinkIssue[];
  /** URLs that resemble no buy link, left as written. */
  otherUrls: FoundUrl[];
}

/**
 * {@link verifyBuyLinks}, then replaces each corrupted URL that has a clear `suggestion` with
 * that true buy link, byte for byte. URLs without a clear match stay as written and are
 * returned in `unrepaired`: show them, drop them or ask the model again, as your
 * application prefers.
 */
export function repairBuyLinks(text: string, toolOutputs: BuyLinkSources): BuyLinkRepair {
  const { issues, otherUrls } = verifyBuyLinks(text, toolOutputs);
  const repaired = issues.filter((issue) => issue.suggestion !== undefined);
  let result = '';
  let cursor = 0;
  for (const issue of repaired) {
    result += text.slice(cursor, issue.start) + issue.suggestion;
    cursor = issue.end;
  }
  return {
    text: result + text.slice(cursor),
    repaired,
    unrepaired: issues.filter((issue) => issue.suggestion === undefined),
    otherUrls,
  };
}
