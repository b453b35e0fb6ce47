import type { Token } from 'markdown-it';
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

/** The env markdown-it passes back to the rules: the one {@link render} gave it. */
function stateOf(env: unknown): RenderEnv {
  return env as RenderEnv;
}

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

function render(tokens: Token[], links: BuyLinkReferences): string {
  const env: RenderEnv = { links, open: [] };
  return parser.renderer.render(tokens, parser.options, { ...env });
}

/**
 * An answer as safe HTML, for a server-rendered page or `innerHTML`: Markdown is rendered,
 * raw HTML is escaped and shown as text, only verified buy links become
 * `<a href rel="noopener noreferrer sponsored">`, and every other link is shown as its text.
 * It reads the answer with the same parse as {@link verifyBuyLinks}, so the links it makes
 * clickable are exactly the `verified` ones. An answer too long to parse is one escaped
 * paragraph with no link.
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
  return render(tokens, referencesOf(toolResults, options));
}
