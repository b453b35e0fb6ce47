import fc from 'fast-check';
import type { Link, LinkReference, Nodes } from 'mdast';
import rehypeRaw from 'rehype-raw';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import {
  type BuyLinkSources,
  buyLinkReference,
  finalizeBuyLinks,
  rehypeBuyLinks,
  renderAnswerHtml,
  verifyBuyLinks,
} from '../src/index.js';
import { parseAnswer } from '../src/parse.js';
import { GFM_DISAGREEMENTS } from './support/attacks.js';
import { BUY, BUY_2, toolResults } from './support/fixtures.js';
import { RENDERERS } from './support/render-both.js';

/** Generated answers per property: many here (each is a parse), more under `pnpm fuzz`. */
const RUNS = Number(process.env.CATALOGKIT_FUZZ_RUNS ?? 1000);

const gfm = unified().use(remarkParse).use(remarkGfm);

/** The oracle: every link remark-gfm (react-markdown, Streamdown) makes, in order. */
function gfmLinks(answer: string): string[] {
  const tree = gfm.runSync(gfm.parse(answer));
  const definitions = new Map<string, string>();
  const links: Array<Link | LinkReference> = [];
  const walk = (node: Nodes): void => {
    if (node.type === 'definition') definitions.set(node.identifier, node.url);
    if (node.type === 'link' || node.type === 'linkReference') links.push(node);
    if ('children' in node) for (const child of node.children) walk(child);
  };
  walk(tree);
  return links.map((link) =>
    link.type === 'link' ? link.url : (definitions.get(link.identifier) ?? ''),
  );
}

/** Every link of the shared parse (verify's and renderAnswerHtml's), in order. */
function ourLinks(answer: string): string[] {
  return (parseAnswer(answer) ?? []).flatMap((block) =>
    (block.children ?? [])
      .filter((token) => token.type === 'link_open')
      .map((token) => String(token.attrGet('href'))),
  );
}

/** Pieces of text near GFM's literal-link rules: schemes, `www.`, `@`, markers, entities. */
const PIECE = fc.oneof(
  fc.constantFrom(
    ...[BUY, BUY_2, 'https://', 'http://', 'HTTPS://', 'www.', 'WWW.', 'evil', 'example', '.']
      .concat(['.com', '_', '-', '@', 'a', '9', 'h', 'w', 'mailto:', 'xmpp:', '/', '?', '&'])
      .concat(['&amp;', '&#46;', ';', '=', '>', '<', '"', "'", '(', ')', '[', ']', '](x)', '*'])
      .concat(['**', '~~', '`', '\\', '\\_', ' ', '\n', '\n\n', '!', ',', ':', '\u00e9', '|'])
      .concat(['go.example/r/1?sig=a', '[Buy](', '<https://a.b>', '<b>', '{', '}', '#', '+']),
  ),
  fc.string({ maxLength: 3 }),
);
/**
 * Answers from those pieces. One difference of the two parsers is left out: remark-gfm reads a
 * single `~` as strikethrough, markdown-it only `~~`. It only splits GFM's text sooner, so a
 * literal link GFM reads there is a prefix of ours (ours is then longer, never a buy link).
 */
const ANSWER = fc
  .array(PIECE, { maxLength: 25 })
  .map((pieces) => pieces.join(''))
  .filter((answer) => !/(?:^|[^~])~(?:[^~]|$)/.test(answer));

describe('literal links are found by GFM’s own rules (remark-gfm as the oracle)', () => {
  it('the shared parse links exactly what remark-gfm links, for generated answers', () => {
    fc.assert(
      fc.property(ANSWER, (answer) => {
        expect(ourLinks(answer)).toEqual(gfmLinks(answer));
      }),
      { numRuns: RUNS },
    );
  });

  it('an answer verifyBuyLinks passes has no GFM link that is not a buy link', () => {
    fc.assert(
      fc.property(ANSWER, (answer) => {
        if (!verifyBuyLinks(answer, toolResults).ok) return;
        for (const link of gfmLinks(answer)) expect([BUY, BUY_2]).toContain(link);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('red team (wave 4b, links)', () => {
  // F2: text GFM links where linkify-it did not.
  it.each([
    ['a digit before the scheme', '9https://evil.example/'],
    ['www. in emphasis', '*www.evil.example*'],
    ['www. inside a word, after an underscore', 'see_www.evil.example_'],
    ['an unknown TLD', 'https://evil.zzzzzz/ and www.evil.notatld'],
    ['an e-mail address in emphasis', '_evil@evil.example_'],
    ['a scheme hidden by a character reference', 'https&#58;//evil.example/'],
    ['www. after an unclosed bracket', '[see www.evil.example'],
  ])('F2: %s is a link, listed, and not clickable', (_name, attack) => {
    const answer = `[Buy](${BUY}) ${attack}`;
    const check = verifyBuyLinks(answer, toolResults);
    expect(check.ok).toBe(false);
    expect(check.issues.map((issue) => issue.url)).toEqual(
      gfmLinks(answer).filter((link) => link !== BUY),
    );
    expect(renderAnswerHtml(answer, toolResults).match(/<a /g)).toHaveLength(1);
  });

  // F3: a buy link GFM reads longer is not the buy link.
  it.each([
    ['`>` and a parameter', `${BUY}>&u=https://evil.example`],
    ['a character reference that is not trailing', `${BUY}&amp;x`],
    ['a closing bracket inside the word', `${BUY}]evil`],
    ['a star inside the word', `${BUY}*evil*`],
  ])('F3: %s after a literal buy link is one longer link, not verified', (_name, answer) => {
    const check = verifyBuyLinks(answer, toolResults);
    expect(gfmLinks(answer)).not.toEqual([BUY]);
    expect(check.verified).toEqual([]);
    expect(check.ok).toBe(false);
    expect(renderAnswerHtml(answer, toolResults)).not.toContain('<a ');
  });

  it('F3: trailing punctuation GFM leaves out keeps the buy link verified', () => {
    for (const end of ['.', ').', '!', '&amp;', '"', ']', '*']) {
      const answer = `Get it: ${BUY}${end}`;
      expect(gfmLinks(answer)).toEqual([BUY]);
      expect(verifyBuyLinks(answer, toolResults)).toMatchObject({ ok: true, issues: [] });
    }
  });
});

/**
 * What a rendered answer can do: its elements' attributes, by name. Only Markdown's own
 * attributes may be there (`rel`, `align`, `start`), and `href` only on a buy link.
 */
function expectOnlyBuyLinks(html: string, buyLinks: readonly string[]): void {
  expect(html).not.toMatch(/<(?:img|script|iframe|svg|math|object|embed|form|meta|base|style)\b/i);
  let anchors = 0;
  for (const [, tag, attributes = ''] of html.matchAll(/<([a-z][a-z0-9]*)([^>]*)>/gi)) {
    for (const [, name, value = ''] of attributes.matchAll(/([^\s=]+)(?:="([^"]*)")?/g)) {
      expect(['href', 'rel', 'align', 'start']).toContain(name);
      if (name !== 'href') continue;
      expect(tag).toBe('a');
      expect(buyLinks).toContain(value.replaceAll('&#x26;', '&').replaceAll('&amp;', '&'));
      anchors += 1;
    }
  }
  expect(html.match(/<a\b/g)?.length ?? 0).toBe(anchors);
}

describe('links red team (L1–L7): GFM renderers read these otherwise; ours stay safe', () => {
  // verify is `ok` on each (as markdown-it, renderAnswerHtml's parse, reads it): the guarantee
  // for a renderer that is not ours comes from rehypeBuyLinks cleaning the tree it built.
  it.each(Object.entries(GFM_DISAGREEMENTS))(
    '%s: ok as markdown-it reads it; both renderers link only the buy link',
    (_name, answer) => {
      expect(verifyBuyLinks(answer, toolResults).ok).toBe(true);
      expect(gfmLinks(answer).some((link) => link !== BUY) || /<img|\[\^/.test(answer)).toBe(true);
      for (const render of Object.values(RENDERERS)) expectOnlyBuyLinks(render(answer), [BUY]);
    },
  );

  // L5: a single `~` ends GFM strikethrough inside a buy link that holds `~`.
  const TILDE_BUY = 'https://go.example/r/1?u=https%3A%2F%2Fshop.example%2F~store%2Fp&sig=a1b2';
  const tildeResults: BuyLinkSources = [
    { toolName: 'search_catalog', output: { products: [{ url: TILDE_BUY }] } },
  ];
  const streamdown = unified()
    .use(remarkParse)
    .use(remarkGfm)
    .use(remarkRehype, { allowDangerousHtml: true })
    .use(rehypeRaw)
    .use(rehypeBuyLinks, { toolResults: tildeResults })
    .use(rehypeStringify);
  it.each([
    ['after an unclosed [', `See [ ~x ${TILDE_BUY}`],
    [
      'through a reference, finalized',
      finalizeBuyLinks(`See [ ~x ${buyLinkReference(TILDE_BUY)}`, tildeResults).text,
    ],
  ])(
    'L5 a single ~ %s: GFM links a prefix, which neither renderer makes clickable',
    (_, answer) => {
      expect(verifyBuyLinks(answer, tildeResults).ok).toBe(true);
      expect(gfmLinks(answer)).not.toContain(TILDE_BUY);
      expectOnlyBuyLinks(renderAnswerHtml(answer, tildeResults), [TILDE_BUY]);
      expectOnlyBuyLinks(String(streamdown.processSync(answer)), [TILDE_BUY]);
    },
  );
});
