import type { BuyLinkSources, BuyLinkTrustOptions } from './buy-links.js';
import { type FoundUrl, isOpaqueHtml, scanUrls } from './find-urls.js';
import { openedUrl, webHostOf } from './href.js';
import { BuyLinkIndex, WorkBudget } from './link-index.js';
import { type BuyLinkMatch, type Nearest, nearestBuyLink } from './nearest.js';
import { BuyLinkReferences } from './resolve.js';

/** A link in an answer that is not a verified buy link and not allowed. */
export interface BuyLinkIssue extends FoundUrl {
  /**
   * The true buy link it most likely meant, when one is clearly nearest and it is on that
   * link's host (see {@link verifyBuyLinks}); absent when several are equally likely, none
   * is near, or the link goes elsewhere.
   */
  suggestion?: string;
  /** How the suggestion was found. */
  match?: BuyLinkMatch;
  /**
   * Buy links it is about as near to, when no single one is clearly nearest, or the one it
   * copies when it leads to another host (`//evil.example/https://…`).
   */
  candidates?: string[];
}

/** Options of {@link verifyBuyLinks} and {@link repairBuyLinks}. */
export interface BuyLinkCheckOptions extends BuyLinkTrustOptions {
  /**
   * Origins whose links the answer may give besides buy links, e.g.
   * `['https://help.example.com']`: a link whose URL (as a browser opens it, `http:` or
   * `https:`) has exactly one of these origins is listed in `otherUrls`, not as an issue.
   */
  allowedOrigins?: readonly string[];
  /**
   * Decides any other link: return true to allow it. Called with what a browser would open
   * (`found.href`); compare parsed origins, not string prefixes.
   */
  allowLink?: (found: FoundUrl) => boolean;
}

/** What {@link verifyBuyLinks} found in an answer. */
export interface BuyLinkVerification {
  /** True when every link a shopper could follow is a verified buy link or allowed. */
  ok: boolean;
  /** Links that are true buy links, byte for byte as written and as a browser opens them. */
  verified: FoundUrl[];
  /**
   * Every other link that is not allowed: corrupted copies of buy links (with the link they
   * meant as `suggestion` when it is clear), invented links, and links elsewhere.
   */
  issues: BuyLinkIssue[];
  /** Links that are not buy links but are allowed: by the options, or URLs of the catalog results. */
  otherUrls: FoundUrl[];
}

/**
 * Work units (about one edit-distance cell each) one check may spend matching links to buy
 * links, whatever the length of the text: a fixed bound, so filler around near-miss links
 * buys an attacker no extra work, and the result does not depend on it. Enough for a few
 * hundred near-miss links against a hundred buy links; past it, links are reported unmatched.
 */
const WORK_LIMIT = 12_000_000;
/**
 * Links one answer may hold. An answer is read for a shopper; one with more links than this
 * is not checked past them (the rest is one issue), so no text costs more than this many.
 */
const MAX_CHECKED_LINKS = 2_000;
/** Distinct URLs whose verdict is remembered within one check (a repeated URL costs once). */
const MEMO_LIMIT = 4096;

/**
 * A trimmed word may have lost punctuation that belongs to a true link (one ending in `.`):
 * the longer span wins when the text holds that link byte for byte.
 */
function widen(text: string, found: FoundUrl, index: BuyLinkIndex): FoundUrl {
  if (found.kind !== 'text' || index.set.has(found.url)) return found;
  const links = index.byTrimmed.get(found.url);
  const whole = links?.find((link) => text.startsWith(link, found.start));
  return whole ? { ...found, url: whole, end: found.start + whole.length, href: whole } : found;
}

function normalOrigin(origin: string): string | undefined {
  try {
    return new URL(origin).origin;
  } catch {
    return undefined;
  }
}

/** The allow-list of some options, as one predicate. */
function allowance(options: BuyLinkCheckOptions): (found: FoundUrl) => boolean {
  const origins = new Set(
    (options.allowedOrigins ?? []).map(normalOrigin).filter((o) => o !== undefined),
  );
  return (found) => {
    const url = origins.size > 0 ? openedUrl(found.href) : undefined;
    const web = url && (url.protocol === 'https:' || url.protocol === 'http:');
    if (web && origins.has(url.origin)) return true;
    return options.allowLink?.(found) ?? false;
  };
}

/**
 * A verdict as an issue. A match is a repair suggestion only when the link stays on the
 * true link's host: a copy behind another host or scheme is an attack, never "meant".
 */
function issueOf(found: FoundUrl, nearest: Nearest): BuyLinkIssue {
  // The found link is this check's own object: it becomes the issue without a copy.
  const issue: BuyLinkIssue = found;
  if (nearest.kind === 'ambiguous') issue.candidates = nearest.candidates;
  else if (nearest.kind !== 'match') issue.candidates = [];
  else if (!repairable(found, nearest.link)) issue.candidates = [nearest.link];
  else {
    issue.suggestion = nearest.link;
    issue.match = nearest.match;
  }
  return issue;
}

/** A copy behind another host or scheme is an attack, never a miscopy to put right. */
function repairable(found: FoundUrl, link: string): boolean {
  const host = webHostOf(found.href);
  return host !== undefined && host === webHostOf(link) && found.url !== link;
}

/** The text past the last link checked, reported whole: nothing in it is trusted. */
function unreadRest(text: string, start: number): BuyLinkIssue {
  const url = text.slice(start);
  return { url, start, end: text.length, href: url, kind: 'text', candidates: [] };
}

function indexOf(
  sources: BuyLinkSources | BuyLinkReferences,
  options: BuyLinkTrustOptions,
): BuyLinkIndex {
  return sources instanceof BuyLinkReferences ? sources.index() : BuyLinkIndex.of(sources, options);
}

/**
 * HTML attributes whose value may be a verified buy link. A form's `action`/`formaction` is
 * never one: a GET submit replaces the query with the form's fields, so the browser opens
 * another URL than the one written; nor is a refresh URL (`content`).
 */
const VERIFIABLE_ATTRIBUTES = new Set(['href', 'src']);

function verifiable(found: FoundUrl): boolean {
  return found.attribute === undefined || VERIFIABLE_ATTRIBUTES.has(found.attribute);
}

/**
 * The work budget and remembered verdicts of a check, shared by every piece of one text
 * (the chunks of a stream), so splitting a text never multiplies the work it may cost.
 */
export class CheckState {
  readonly budget = new WorkBudget(WORK_LIMIT);
  readonly #memo = new Map<string, Nearest>();
  #index: BuyLinkIndex | undefined;

  /** The verdicts remembered against `index` (forgotten when the links change). */
  memoFor(index: BuyLinkIndex): Map<string, Nearest> {
    if (this.#index !== index) {
      this.#memo.clear();
      this.#index = index;
    }
    return this.#memo;
  }
}

/** Sorts one found link into the verification. */
class Checker {
  readonly verification: BuyLinkVerification = {
    ok: true,
    verified: [],
    issues: [],
    otherUrls: [],
  };
  readonly #index: BuyLinkIndex;
  readonly #allowed: (found: FoundUrl) => boolean;
  readonly #budget: WorkBudget;
  readonly #memo: Map<string, Nearest>;

  constructor(index: BuyLinkIndex, options: BuyLinkCheckOptions, state: CheckState) {
    this.#index = index;
    this.#allowed = allowance(options);
    this.#budget = state.budget;
    this.#memo = state.memoFor(index);
  }

  add(found: FoundUrl): void {
    const { verified, issues, otherUrls } = this.verification;
    const index = this.#index;
    if (!verifiable(found) || isOpaqueHtml(found)) {
      // Reported whatever it holds, never allowed, and never "repaired" into something that
      // looks verified (a value that ran over text would take that text with it).
      const issue: BuyLinkIssue = found;
      issue.candidates = [];
      return void issues.push(issue);
    }
    if (index.set.has(found.url) && found.href === found.url) return void verified.push(found);
    const nearest = this.#nearest(found.href);
    if (nearest.kind === 'unrelated' && this.#isAllowed(found)) return void otherUrls.push(found);
    issues.push(issueOf(found, nearest));
  }

  #isAllowed(found: FoundUrl): boolean {
    return (
      (found.url === found.href && this.#index.catalogUrls.has(found.href)) || this.#allowed(found)
    );
  }

  #nearest(href: string): Nearest {
    const known = this.#memo.get(href);
    if (known) return known;
    const nearest = nearestBuyLink(href, this.#index, this.#budget);
    if (this.#memo.size < MEMO_LIMIT) this.#memo.set(href, nearest);
    return nearest;
  }
}

/**
 * Checks every link of a model's answer against the buy links of the trusted catalog
 * results (`steps[].toolResults` in the AI SDK; see {@link BuyLinkSources}). Links are
 * found the way a Markdown renderer and a browser find them ({@link findUrls}): Markdown
 * targets of any scheme, autolinks, HTML attributes, and linkable words of running text,
 * each judged whole.
 *
 * A link is `verified` only when it is a buy link byte for byte, as written and as a
 * browser would open it. Every other link a shopper could follow is an issue unless it is
 * allowed (`allowedOrigins`, `allowLink`, or a URL of the catalog results, such as a
 * seller's page), so `ok` is false whenever a clickable link is neither. An issue carries
 * the true link it most likely meant as `suggestion` when one is clearly nearest and the
 * link stays on that link's host: the only link equal once case and percent-encoding are
 * ignored, the only link it is a cut copy of, the link it starts with, or the nearest by
 * edit distance (within one edit in ten characters, with the runner-up at least twice as
 * far and three edits further). Linear in the length of the text.
 *
 * @example
 * const check = verifyBuyLinks(result.text, result.steps.flatMap((s) => s.toolResults));
 * if (!check.ok) console.warn(check.issues);
 */
export function verifyBuyLinks(
  text: string,
  toolResults: BuyLinkSources | BuyLinkReferences,
  options: BuyLinkCheckOptions = {},
): BuyLinkVerification {
  return verifyWith(text, toolResults, options, new CheckState());
}

/** {@link verifyBuyLinks} drawing on a budget shared with other pieces of the same text. */
function verifyWith(
  text: string,
  toolResults: BuyLinkSources | BuyLinkReferences,
  options: BuyLinkCheckOptions,
  state: CheckState,
): BuyLinkVerification {
  const index = indexOf(toolResults, options);
  const checker = new Checker(index, options, state);
  const { found, stoppedAt } = scanUrls(text, MAX_CHECKED_LINKS);
  for (const raw of found) checker.add(widen(text, raw, index));
  const verification = checker.verification;
  if (stoppedAt !== undefined) verification.issues.push(unreadRest(text, stoppedAt));
  verification.ok = verification.issues.length === 0;
  return verification;
}

/** What {@link repairBuyLinks} did to an answer. */
export interface BuyLinkRepair {
  /** The answer with every clearly meant buy link put back byte for byte. */
  text: string;
  /** The links replaced (offsets are in the original text), each with its `suggestion`. */
  repaired: BuyLinkIssue[];
  /**
   * Links that are neither verified, repaired nor allowed: left as written, for you to
   * handle (show them as text, drop them or ask the model again).
   */
  unrepaired: BuyLinkIssue[];
  /** Links that are not buy links but are allowed, left as written. */
  otherUrls: FoundUrl[];
}

/**
 * {@link verifyBuyLinks}, then replaces each corrupted link that has a clear `suggestion`
 * with that true buy link, byte for byte. A verified link is never rewritten; links without
 * a clear match stay as written and are returned in `unrepaired`.
 */
export function repairBuyLinks(
  text: string,
  toolResults: BuyLinkSources | BuyLinkReferences,
  options: BuyLinkCheckOptions = {},
): BuyLinkRepair {
  return repairWith(text, toolResults, options, new CheckState());
}

/**
 * {@link repairBuyLinks} drawing on `state`: a stream passes one state for all its chunks,
 * so the whole stream costs no more than checking its text at once.
 */
export function repairWith(
  text: string,
  toolResults: BuyLinkSources | BuyLinkReferences,
  options: BuyLinkCheckOptions,
  state: CheckState,
): BuyLinkRepair {
  const { issues, otherUrls } = verifyWith(text, toolResults, options, state);
  const repaired: BuyLinkIssue[] = [];
  const unrepaired: BuyLinkIssue[] = [];
  let result = '';
  let cursor = 0;
  for (const issue of issues) {
    // Spans overlap only when a tag's attribute was also inside another construct; the
    // first one is rewritten, the overlapping one is reported.
    if (issue.suggestion === undefined || issue.start < cursor) {
      unrepaired.push(issue);
      continue;
    }
    repaired.push(issue);
    result += text.slice(cursor, issue.start) + issue.suggestion;
    cursor = issue.end;
  }
  return { text: result + text.slice(cursor), repaired, unrepaired, otherUrls };
}
