import {
  type BuyLinkTrustOptions as BuyLinkCheckOptions,
  type BuyLinkIssue,
  type BuyLinkSources,
  MAX_PARSED_CHARS,
  resolveBuyLinks,
  verifyBuyLinks,
} from '@catalogkit/links';
import type { Nodes } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import type { CatalogService } from '../service/catalog-service.js';
import { throwIfAny } from './error.js';

/** Options of {@link assertBuyLinksVerified}. */
export interface BuyLinkAssertionOptions extends BuyLinkCheckOptions {
  /** Fewest verified buy links the answer must give (default 0). */
  atLeast?: number;
  /**
   * Your own links the answer may give (`https://help.example.com`, `https://shop.example/faq`):
   * a link is allowed when its origin is an entry's and its path is the entry's path or under
   * it (an origin alone allows the whole origin).
   */
  allowedLinks?: readonly string[];
  /**
   * URLs the catalog's results hold (retailer sites, product pages and pictures), allowed
   * exactly as given; given a {@link CatalogService}, its `catalogUrls()` are added.
   */
  catalogUrls?: readonly string[];
}

/** A web URL parsed, or undefined (another scheme, or no URL). */
function webUrl(text: string): URL | undefined {
  const url = URL.parse(text);
  return url && (url.protocol === 'https:' || url.protocol === 'http:') ? url : undefined;
}

/** The entries of `allowedLinks`, parsed; a wrong one is a typed error naming it. */
export function allowedEntries(allowedLinks: readonly string[]): URL[] {
  return allowedLinks.map((entry, i) => {
    const url = typeof entry === 'string' ? webUrl(entry) : undefined;
    if (!url) {
      throw new TypeError(
        `allowedLinks[${i}] must be an http: or https: URL such as https://help.example.com, got ${JSON.stringify(entry)}`,
      );
    }
    return url;
  });
}

function under(url: URL, entry: URL): boolean {
  if (url.origin !== entry.origin) return false;
  const base = entry.pathname.endsWith('/') ? entry.pathname : `${entry.pathname}/`;
  return url.pathname === entry.pathname || url.pathname.startsWith(base);
}

/**
 * One predicate for every link allowed besides buy links: the entries of `allowedLinks`, and
 * the URLs the catalog gave (exactly, as a browser opens them). Raw HTML is never allowed:
 * both readings list it as an issue of its own kind.
 */
function allowance(options: BuyLinkAssertionOptions): (issue: BuyLinkIssue) => boolean {
  const entries = allowedEntries(options.allowedLinks ?? []);
  const given = new Set((options.catalogUrls ?? []).flatMap((link) => webUrl(link)?.href ?? []));
  return (issue) => {
    if (issue.kind !== 'link') return false;
    const url = webUrl(issue.url);
    return !!url && (given.has(url.href) || entries.some((entry) => under(url, entry)));
  };
}

/** Longest link quoted whole: a buy link fits; a link in pasted text (JSON, say) is cut. */
const MAX_QUOTED = 300;
/** How much of a cut link is quoted, from its scheme. */
const CUT_TO = 160;
/** Links named one by one; past these, a count (an answer may paste thousands). */
const MAX_NAMED = 3;

/**
 * The link as a problem quotes it: whole, or from its scheme, cut, so the report stays short.
 * Measured as quoted (escapes count): GFM reads a URL in pasted JSON on through its quotes.
 */
function quoted(url: string): string {
  if (JSON.stringify(url).length <= MAX_QUOTED) return JSON.stringify(url);
  const scheme = Math.max(0, url.search(/https?:\/\//i));
  let cut = '';
  for (const char of url.slice(scheme, scheme + CUT_TO)) {
    if (JSON.stringify(cut + char).length > CUT_TO) break;
    cut += char;
  }
  const shown = JSON.stringify(`${scheme > 0 ? '…' : ''}${cut}…`);
  return `${shown} (a link run into ${url.length} characters of other text)`;
}

/** What one issue is, in the report's words. */
function issueProblem(issue: BuyLinkIssue): string {
  if (issue.kind === 'html')
    return `raw HTML ${quoted(issue.url)} is in the answer (HTML is never a verified link)`;
  if (issue.kind === 'image')
    return `the image ${quoted(issue.url)} loads a URL the catalog did not give`;
  if (issue.kind === 'too-long') return 'the answer is too long to check its links';
  return `${quoted(issue.url)} is not a buy link the catalog gave`;
}

/** The issues not allowed: the first few named, the rest counted. */
function unverifiedProblems(issues: readonly BuyLinkIssue[]): string[] {
  const named = issues.slice(0, MAX_NAMED).map(issueProblem);
  const more = issues.length - named.length;
  return more > 0
    ? [...named, `${more} more links or HTML are not buy links the catalog gave`]
    : named;
}

/** The parse of GFM renderers (react-markdown, Streamdown): remark-parse + remark-gfm. */
const gfm = unified().use(remarkParse).use(remarkGfm);

/** The words naming the disagreement, at the start of each problem it causes. */
const DISAGREE =
  'GFM renderers (remark-gfm: react-markdown, Streamdown) read this answer differently from the check (markdown-it, as renderAnswerHtml renders it):';

/**
 * The second reading, so the kit fails closed where the two parsers disagree (footnotes,
 * indented lines after definitions, a definition above `| - |`, one-column tables, a single
 * `~`, Unicode whitespace in labels): the answer as remark-gfm reads it has no raw HTML and no
 * image, and no link or definition whose URL is not byte for byte a verified buy link or
 * allowed (a linkReference takes its URL from a definition, checked here). A footnote call and its back-reference are the renderer's own links within the page
 * (`#user-content-fn…`, not in the tree): allowed, while the footnote's content is walked as
 * any other. Only answers verify parses (up to MAX_PARSED_CHARS) are read, so the cost is
 * bounded as verify's is.
 */
function gfmProblems(
  answer: string,
  verified: ReadonlySet<string>,
  allowed: (issue: BuyLinkIssue) => boolean,
): string[] {
  if (answer.length > MAX_PARSED_CHARS) return [];
  const issues: BuyLinkIssue[] = [];
  const stack: Nodes[] = [gfm.parse(answer)];
  for (let node = stack.pop(); node; node = stack.pop()) {
    const line = node.position?.start.line ?? 1;
    if (node.type === 'html') issues.push({ kind: 'html', url: node.value, line });
    // An image loads with no click: an issue whatever its URL, as in verify.
    if (node.type === 'image') issues.push({ kind: 'image', url: node.url, line });
    if (node.type === 'imageReference') issues.push({ kind: 'image', url: node.label ?? '', line });
    if (node.type === 'link' || node.type === 'definition') {
      const issue: BuyLinkIssue = { kind: 'link', url: node.url, line };
      if (!verified.has(node.url) && !allowed(issue)) issues.push(issue);
    }
    // Children pushed last first, so issues come in the order of the answer.
    if ('children' in node) stack.push(...[...node.children].reverse());
  }
  return unverifiedProblems(issues).map((problem) => `${DISAGREE} ${problem}`);
}

/** Links in the answer that are not verified buy links, and references left unresolved. */
export function buyLinkProblems(
  answer: string,
  sources: BuyLinkSources,
  options: BuyLinkAssertionOptions = {},
): string[] {
  const { atLeast = 0, allowedLinks: _, catalogUrls: __, ...checkOptions } = options;
  const allowed = allowance(options);
  const verification = verifyBuyLinks(answer, sources, checkOptions);
  const problems = unverifiedProblems(verification.issues.filter((issue) => !allowed(issue)));
  // Fails closed: a GFM renderer without rehypeBuyLinks must read the same answer as safe too.
  if (problems.length === 0) {
    const verified = new Set(verification.verified.map((link) => link.url));
    problems.push(...gfmProblems(answer, verified, allowed));
  }
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
 * Throws unless every link in the final answer, read twice (as `renderAnswerHtml` reads it,
 * markdown-it, and as GFM renderers without `rehypeBuyLinks` do, remark-gfm: the check fails
 * where they disagree), is a verified buy link (byte for byte a link of a catalog result) or
 * allowed (`allowedLinks`, or a URL the catalog's results hold: `catalogUrls`), the answer
 * has no raw HTML, and no `[[buy:…]]` reference the application could have resolved is shown
 * in place of its link. Given a {@link CatalogService}, the sources are the results the
 * service really gave, and the URLs they hold are allowed (`service.catalogUrls()`).
 *
 * @example
 * assertBuyLinksVerified(text, service, { atLeast: 1 });
 */
export function assertBuyLinksVerified(
  answer: string,
  sources: BuyLinkSources | CatalogService,
  options?: BuyLinkAssertionOptions,
): void {
  if (!('buyLinkSources' in sources)) {
    throwIfAny('assertBuyLinksVerified', buyLinkProblems(answer, sources, options));
    return;
  }
  const catalogUrls = [...sources.catalogUrls(), ...(options?.catalogUrls ?? [])];
  throwIfAny(
    'assertBuyLinksVerified',
    buyLinkProblems(answer, sources.buyLinkSources(), { ...options, catalogUrls }),
  );
}
