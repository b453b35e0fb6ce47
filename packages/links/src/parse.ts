import MarkdownIt, { type Token } from 'markdown-it';

/**
 * The longest answer that is parsed. An answer is read by a shopper; a longer one is not
 * parsed at all: it is reported whole and rendered as escaped text with no link, so its cost
 * is one linear pass whatever it holds, and the parser's worst case is bounded by this size.
 */
export const MAX_PARSED_CHARS = 100_000;

/**
 * The one parser of answers (CommonMark + GFM tables, strikethrough and literal links), shared
 * by {@link verifyBuyLinks} and {@link renderAnswerHtml}. Raw HTML is parsed as HTML so it can
 * be reported (and is then escaped when rendered). Every link destination is kept as written
 * (after the Markdown decoding of escapes and character references, which is what a browser
 * is given): `validateLink` accepts every scheme so that none is silently turned into text
 * here, and no normalization rewrites it, so the check is byte for byte.
 */
const parser = new MarkdownIt('default', { html: true, linkify: true });
parser.validateLink = () => true;
parser.normalizeLink = (url) => url;
parser.normalizeLinkText = (text) => text;
// Bare domains (`www.x.com/…`, `x.com/…`) are links too, as GFM and chat renderers make them:
// more text read as links means more judged, never fewer.
parser.linkify.set({ fuzzyLink: true });

/** A parsed answer: its tokens, or `undefined` when it is too long to parse. */
export function parseAnswer(text: string): Token[] | undefined {
  return text.length > MAX_PARSED_CHARS ? undefined : parser.parse(text, {});
}

export { parser };
