import { parseAnswer, parser } from './parse.js';
import { type BuyLinkReferences, referencesOf } from './references.js';
import type { BuyLinkSources, BuyLinkTrustOptions } from './sources.js';

/** The `rel` of every buy link rendered: no opener, no referrer, marked as paid. */
export const BUY_LINK_REL = 'noopener noreferrer sponsored';

/** What the render rules read: the buy links, and whether each open link was rendered. */
interface RenderEnv {
  links: BuyLinkReferences;
  open: boolean[];
}

/** The env markdown-it passes back to the rules: the one `renderAnswerHtml` gave it. */
const stateOf = (env: unknown) => env as RenderEnv;

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/*
 * The render rules that differ from markdown-it's own (which escape all text and code):
 * raw HTML is shown as text, an image as its alt text, and a link becomes `<a>` only when
 * its destination is a buy link; any other link is its text alone. Rules are given the
 * tokens of the one parse, so what is rendered is what was verified.
 */
const rules = parser.renderer.rules;
rules.html_block = (tokens, i) => `<p>${escapeHtml(tokens[i]!.content)}</p>\n`;
rules.html_inline = (tokens, i) => escapeHtml(tokens[i]!.content);
rules.image = (tokens, i, options, env) =>
  escapeHtml(parser.renderer.renderInlineAsText(tokens[i]!.children ?? [], options, env));
rules.link_open = (tokens, i, _options, env) => {
  const href = String(tokens[i]!.attrGet('href') ?? '');
  const state = stateOf(env);
  const clickable = state.links.has(href);
  state.open.push(clickable);
  return clickable ? `<a href="${escapeHtml(href)}" rel="${BUY_LINK_REL}">` : '';
};
rules.link_close = (_tokens, _i, _options, env) => (stateOf(env).open.pop() ? '</a>' : '');

/**
 * An answer as safe HTML, for a server-rendered page or `innerHTML`: Markdown rendered, raw HTML
 * escaped as text, only verified buy links as `<a href rel="noopener noreferrer sponsored">`,
 * every other link its text. The same parse as {@link verifyBuyLinks}, so what is clickable is
 * exactly what is `verified`. An answer too long to parse is one escaped paragraph, no link.
 *
 * @example
 * element.innerHTML = renderAnswerHtml(answer, result.steps.flatMap((s) => s.toolResults));
 */
export function renderAnswerHtml(
  text: string,
  toolResults: BuyLinkSources | BuyLinkReferences,
  options: BuyLinkTrustOptions = {},
): string {
  const tokens = parseAnswer(text);
  if (!tokens) return `<p>${escapeHtml(text)}</p>\n`;
  const env: RenderEnv = { links: referencesOf(toolResults, options), open: [] };
  return parser.renderer.render(tokens, parser.options, { ...env });
}
