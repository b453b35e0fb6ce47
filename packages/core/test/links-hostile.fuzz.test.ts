import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { finalizeBuyLinks } from '../src/links/finalize.js';
import { buyLinkReference } from '../src/links/references.js';
import { verifyBuyLinks } from '../src/links/verify.js';

const RUNS = Number(process.env.CATALOGKIT_FUZZ_RUNS) || 300;

const LINKS = [
  'https://go.catalogkit.test/r/web_rzyeku4y?pub=pub_usr_demo&campaign=agent+search&u=https%3A%2F%2Fwww.birchmarket.fr%2Fproducts%2Fonyxon-glide%3Fvariant%3D240292&sig=2kforr',
  'https://go.catalogkit.test/r/web_k2bij9ic?pub=pub_usr_demo&u=https%3A%2F%2Fshop.test%2Fp%2Fx&sig=lhd8nj',
  'https://shop.test/p/item_(blue).',
];
const sources = [
  {
    toolName: 'search_catalog',
    output: { result: { products: [{ variants: LINKS.map((url) => ({ url })) }] } },
  },
];

/** Pieces a prefix is made of: schemes, authorities, entities, backslashes, whitespace. */
const piece = fc.constantFrom(
  '//',
  '\\\\',
  '/\\',
  'evil.example',
  'evil.example/',
  'https:',
  'http:',
  'javascript:',
  'data:text/html,',
  'ftp:',
  'mailto:',
  'vbscript:',
  'www.',
  'www.evil.example/',
  '&#58;',
  '&colon;',
  '&#x2F;',
  '&sol;',
  '&#9;',
  '\t',
  '%2F',
  '@',
  '?u=',
  '#',
  'x',
  '.',
  '\\',
  ':',
);

/**
 * A prefix that changes what a browser opens: at least one piece that is not whitespace (a
 * renderer skips whitespace before a target, so a bare tab is no attack).
 */
const prefix = fc
  .array(piece, { minLength: 1, maxLength: 6 })
  .map((parts) => parts.join(''))
  .filter((joined) => /\S/.test(joined));

/** Where the link is written; `href` is the text a renderer reads as the link's target. */
const contexts: Array<(href: string) => string> = [
  (href) => `[Buy](${href})`,
  (href) => `[Buy](<${href}>)`,
  (href) => `![x](${href})`,
  (href) => `<a href="${href}">Buy</a>`,
  (href) => `<a href='${href}'>Buy</a>`,
  (href) => `<img src=${href}>`,
  (href) => `[[Buy](${href})](x)`,
  (href) => `[Buy][1]\n\n[1]: ${href}`,
];

/** Contexts of running text, where a linkifier decides; the word is taken whole. */
const textContexts: Array<(href: string) => string> = [
  (href) => `Buy: ${href} now`,
  (href) => `(${href})`,
  (href) => `**${href}**`,
  (href) => `${href}.`,
  (href) => `"${href}"`,
];

describe('hostile wrappers around true buy links (property)', () => {
  it('a link target that is not exactly a buy link never passes as verified, and ok is false', () => {
    fc.assert(
      fc.property(
        prefix,
        fc.constantFrom(...LINKS),
        fc.constantFrom(...contexts),
        (before, link, context) => {
          const text = context(`${before}${link}`);
          const check = verifyBuyLinks(text, sources);
          expect(check.ok, text).toBe(false);
          // Finalizing may repair a copy that stays on the true link's host (`&#9;` before
          // it is dropped by the URL parser); what it shows is then exactly true links.
          const final = finalizeBuyLinks(text, sources);
          if (final.ok) expect(verifyBuyLinks(final.text, sources).ok, final.text).toBe(true);
          for (const issue of final.repaired) {
            expect(new URL(issue.href, 'https://app.test/').host, text).toBe(new URL(link).host);
          }
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('in running text, a true link glued to a hostile prefix is never verified', () => {
    fc.assert(
      fc.property(
        prefix.filter((p) => /[a-z]/i.test(p) && !/[\s]$/.test(p)),
        fc.constantFrom(...LINKS),
        fc.constantFrom(...textContexts),
        (before, link, context) => {
          const text = context(`${before}${link}`);
          const check = verifyBuyLinks(text, sources);
          expect(
            check.verified.map((found) => found.url),
            text,
          ).toEqual([]);
          expect(check.ok, text).toBe(false);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('a reference resolved inside a hostile target is never shown as anything but a true link', () => {
    fc.assert(
      fc.property(
        prefix,
        fc.constantFrom(...LINKS),
        fc.constantFrom(...contexts),
        (before, link, context) => {
          const text = context(`${before}${buyLinkReference(link)}`);
          const final = finalizeBuyLinks(text, sources);
          if (final.ok) expect(verifyBuyLinks(final.text, sources).ok, final.text).toBe(true);
          for (const issue of final.repaired) expect(issue.href, text).not.toMatch(/evil/);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('true links written plainly are still verified, in every notation', () => {
    const plain: Array<(href: string) => string> = [
      (href) => `[Buy](${href})`,
      (href) => `<${href}>`,
      (href) => `<a href="${href}">Buy</a>`,
      (href) => `Buy: ${href}`,
      (href) => `**${href}**`,
      (href) => `(${href})`,
      (href) => `${href}!`,
    ];
    fc.assert(
      fc.property(
        fc.subarray(LINKS, { minLength: 1 }),
        fc.constantFrom(...plain),
        fc.constantFrom('\n', ' ', '\n\n- '),
        (links, context, separator) => {
          const text = links.map(context).join(separator);
          const check = verifyBuyLinks(text, sources);
          expect(check.ok, text).toBe(true);
          expect(check.verified.map((found) => found.url)).toEqual(links);
          expect(finalizeBuyLinks(text, sources).text).toBe(text);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('random text around true links: ok only when every found link is verified or allowed', () => {
    const noise = fc.string({
      unit: fc.constantFrom(...'ab :/\\.&#;()[]<>"\'`*_~!?@%\t\nwhtps'),
      maxLength: 40,
    });
    fc.assert(
      fc.property(noise, fc.constantFrom(...LINKS), noise, (left, link, right) => {
        const text = `${left}${link}${right}`;
        const check = verifyBuyLinks(text, sources);
        if (check.ok) {
          for (const found of check.verified) expect(LINKS).toContain(found.href);
        }
        for (const found of check.verified) expect(found.href).toBe(found.url);
      }),
      { numRuns: RUNS },
    );
  });
});
