import type { Element, ElementContent, Properties, Root, RootContent } from 'hast';
import { type BuyLinkReferences, referencesOf } from './references.js';
import { BUY_LINK_REL } from './render.js';
import type { BuyLinkSources, BuyLinkTrustOptions } from './sources.js';

/** Options of {@link rehypeBuyLinks}. */
export interface RehypeBuyLinksOptions extends BuyLinkTrustOptions {
  /** The tool results of the answer (see {@link BuyLinkSources}), or their references. */
  toolResults: BuyLinkSources | BuyLinkReferences;
}

/**
 * The elements an answer may keep, each with the properties it may keep: what Markdown makes.
 * Any other element (`svg`, `iframe`, `form`, `script`, `meta`, `base`…) is replaced by its
 * children, and any other property (`on…`, `style`, `srcdoc`, `action`…) is dropped.
 */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  ...Object.fromEntries(
    'p br hr em strong del s code pre kbd blockquote ul li h1 h2 h3 h4 h5 h6 table thead tbody tr sup sub'
      .split(' ')
      .map((tag) => [tag, []]),
  ),
  ol: ['start'],
  th: ['align'],
  td: ['align'],
};

/** Raw HTML left in the tree by `remark-rehype` with `allowDangerousHtml` and no `rehype-raw`. */
type Raw = { type: 'raw'; value: string };

function kept(properties: Properties, names: readonly string[]): Properties {
  const out: Properties = {};
  for (const name of names) if (properties[name] !== undefined) out[name] = properties[name];
  return out;
}

/** The text of an image: its `alt`, as text. */
function altText(element: Element): ElementContent[] {
  const alt = element.properties.alt;
  return typeof alt === 'string' && alt ? [{ type: 'text', value: alt }] : [];
}

function cleanElement(element: Element, links: BuyLinkReferences): ElementContent[] {
  const children = cleanChildren(element.children, links);
  const href = element.properties.href;
  if (element.tagName === 'a' && typeof href === 'string' && links.has(href)) {
    const properties = { href, rel: BUY_LINK_REL.split(' ') };
    return [{ type: 'element', tagName: 'a', properties, children }];
  }
  if (element.tagName === 'img') return altText(element);
  const names = Object.hasOwn(ALLOWED, element.tagName) ? ALLOWED[element.tagName] : undefined;
  if (!names) return children;
  const properties = kept(element.properties, names);
  return [{ type: 'element', tagName: element.tagName, properties, children }];
}

/** One node as what may stay of it: raw HTML becomes its text, comments go. */
function cleanNode(node: RootContent | Raw, links: BuyLinkReferences): ElementContent[] {
  switch (node.type) {
    case 'text':
      return [node];
    case 'element':
      return cleanElement(node, links);
    case 'raw':
      return [{ type: 'text', value: node.value }];
    default:
      return [];
  }
}

type Nodes = ReadonlyArray<RootContent | Raw>;
const cleanChildren = (nodes: Nodes, links: BuyLinkReferences): ElementContent[] =>
  nodes.flatMap((node) => cleanNode(node, links));

/**
 * A rehype plugin with the rule of {@link renderAnswerHtml} for an application's renderer
 * (react-markdown, Streamdown): only links whose `href` is byte for byte a buy link stay
 * clickable (`rel="noopener noreferrer sponsored"`); other links, images and raw HTML become
 * text; only Markdown's elements remain, with no attribute that loads or runs anything. Put it
 * last among the rehype plugins (after `rehype-raw`).
 *
 * @example
 * <Markdown rehypePlugins={[[rehypeBuyLinks, { toolResults }]]}>{answer}</Markdown>
 */
export function rehypeBuyLinks(options: RehypeBuyLinksOptions): (tree: Root) => void {
  const links = referencesOf(options.toolResults, options);
  return (tree) => {
    tree.children = cleanChildren(tree.children, links);
  };
}
