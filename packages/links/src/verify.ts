import type { Token } from 'markdown-it';
import { MAX_PARSED_CHARS, parseAnswer } from './parse.js';
import { type BuyLinkReferences, referencesOf } from './references.js';
import type { BuyLinkSources, BuyLinkTrustOptions } from './sources.js';

/** How a verified link was written: `[text](url)`, `<url>`, or a bare URL in text. */
export type VerifiedLinkForm = 'link' | 'autolink' | 'literal';

/** A buy link of the answer, byte for byte one of the trusted catalog results'. */
export interface VerifiedLink {
  url: string;
  form: VerifiedLinkForm;
  /** 1-based line of the block it is in. */
  line: number;
}

/**
 * Why part of an answer is not verified: `link` (its destination, of any scheme, is no buy link),
 * `image` (loads with no click), `html` (raw HTML, never verified), `too-long` (longer than
 * {@link MAX_PARSED_CHARS}, so not parsed).
 */
export type BuyLinkIssueKind = 'link' | 'image' | 'html' | 'too-long';

/** Something in an answer a shopper could follow or a browser could run, not verified. */
export interface BuyLinkIssue {
  kind: BuyLinkIssueKind;
  /** The destination as parsed (`link`, `image`), or the raw HTML as written (`html`). */
  url: string;
  /** 1-based line of the block it is in. */
  line: number;
}

/** What {@link verifyBuyLinks} found in an answer. */
export interface BuyLinkVerification {
  /** True when the answer has no raw HTML and every link in it is a verified buy link. */
  ok: boolean;
  /** Links that are buy links of the trusted results, byte for byte. */
  verified: VerifiedLink[];
  /** Everything else that is a link, an image or raw HTML, each listed. */
  issues: BuyLinkIssue[];
}

/** The longest raw HTML kept in an issue: enough to recognise it, bounded for logs. */
const MAX_ISSUE_TEXT = 200;

function formOf(token: Token): VerifiedLinkForm {
  if (token.markup === 'autolink') return 'autolink';
  return token.markup === 'linkify' ? 'literal' : 'link';
}

/** Sorts tokens (blocks, and each block's inline tokens) into the verification. */
function visit(
  tokens: readonly Token[],
  links: BuyLinkReferences,
  out: BuyLinkVerification,
  line = 1,
): void {
  for (const token of tokens) {
    const at = token.map ? token.map[0] + 1 : line;
    if (token.type === 'html_block' || token.type === 'html_inline') {
      out.issues.push({ kind: 'html', url: token.content.slice(0, MAX_ISSUE_TEXT), line: at });
    } else if (token.type === 'link_open') {
      const url = String(token.attrGet('href') ?? '');
      if (links.has(url)) out.verified.push({ url, form: formOf(token), line: at });
      else out.issues.push({ kind: 'link', url, line: at });
    } else if (token.type === 'image') {
      out.issues.push({ kind: 'image', url: String(token.attrGet('src') ?? ''), line: at });
    } else if (token.children) visit(token.children, links, out, at);
  }
}

/**
 * Checks a model's answer against the buy links of the trusted catalog results
 * (`steps[].toolResults` in the AI SDK; see {@link BuyLinkSources}), reading it with the
 * same CommonMark + GFM parse that {@link renderAnswerHtml} renders.
 *
 * An allow-list: a link is `verified` only when it is a Markdown link, an autolink or a GFM
 * literal link whose destination is byte for byte a buy link. Everything else a browser
 * could follow or run is an issue: any raw HTML (inline or block, whatever it holds), any
 * other link of any scheme, any image. `ok` is true only when there is no issue, as
 * markdown-it reads the answer: a GFM renderer (react-markdown, Streamdown) reads some answers
 * otherwise (README, L1–L7) and is covered by `rehypeBuyLinks`, not by this. Linear in
 * the length of the text (answers over {@link MAX_PARSED_CHARS} are one `too-long` issue).
 *
 * @example
 * const check = verifyBuyLinks(result.text, result.steps.flatMap((s) => s.toolResults));
 * if (!check.ok) console.warn(check.issues);
 */
export function verifyBuyLinks(
  text: string,
  toolResults: BuyLinkSources | BuyLinkReferences,
  options: BuyLinkTrustOptions = {},
): BuyLinkVerification {
  const out: BuyLinkVerification = { ok: true, verified: [], issues: [] };
  const tokens = parseAnswer(text);
  if (tokens) visit(tokens, referencesOf(toolResults, options), out);
  else out.issues.push({ kind: 'too-long', url: '', line: 1 });
  out.ok = out.issues.length === 0;
  return out;
}
