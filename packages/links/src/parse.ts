import MarkdownIt, { type Token } from 'markdown-it';
import { gfmLiterals } from './gfm-literals.js';

/**
 * The longest answer that is read. An answer is read by a shopper; a longer one is not
 * parsed and its references are not resolved past this length: it is reported whole and
 * rendered as escaped text with no link, so its cost is one linear pass whatever it holds,
 * and the parser's worst case is bounded by this size.
 */
export const MAX_PARSED_CHARS = 100_000;

/**
 * The one parser of answers (CommonMark + GFM tables, strikethrough and literal links), shared
 * by {@link verifyBuyLinks} and {@link renderAnswerHtml}. Literal links are found by GFM's own
 * rules (`gfmLiterals`, as remark-gfm finds them), so a bare URL is the same link here as in
 * react-markdown or Streamdown. Raw HTML is parsed as HTML so it can be reported (and is then
 * escaped when rendered). Every link destination is kept as written (after the Markdown
 * decoding of escapes and character references, which is what a browser is given):
 * `validateLink` accepts every scheme so that none is silently turned into text here, and no
 * normalization rewrites it, so the check is byte for byte.
 */
const parser = new MarkdownIt('default', { html: true, linkify: false });
parser.validateLink = () => true;
parser.normalizeLink = (url) => url;
parser.normalizeLinkText = (text) => text;
parser.use(gfmLiterals);

/** A parsed answer: its tokens, or `undefined` when it is too long to parse. */
export function parseAnswer(text: string): Token[] | undefined {
  return text.length > MAX_PARSED_CHARS ? undefined : parser.parse(text, {});
}

export { parser };
