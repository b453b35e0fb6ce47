import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { finalizeBuyLinks } from '../src/links/finalize.js';
import { verifyBuyLinks } from '../src/links/verify.js';

// Generated form of the red team's F1-F4: decoys that derail one parser (a fake tag in a code
// span, an escaped `<`, stray quotes, `]`) before a real foreign link in HTML, a reference
// definition in a container, or an autolink after any Unicode space. None may pass.

const RUNS = Number(process.env.CATALOGKIT_FUZZ_RUNS) || 200;
const L =
  'https://go.catalogkit.test/r/web_k2bij9ic?pub=pub_usr_demo&u=https%3A%2F%2Fshop.test%2Fp%2Fx&sig=lhd8nj';
const sources = [
  { toolName: 'search_catalog', output: { result: { products: [{ variants: [{ url: L }] }] } } },
];

const decoy = fc.constantFrom(
  '`<b title="`',
  '\\<i title="x',
  "<span data-x='",
  '<b title="',
  '"',
  "'",
  '`',
  '<',
  '<!--',
  '[',
  '](',
  '<a href="',
  `<a href="${L}`,
  '&quot;',
  'word',
  '\n',
  ' ',
);

const space = fc.constantFrom(
  ' ',
  '\n',
  '\u00a0',
  '\u0085',
  '\u2002',
  '\u2028',
  '\u3000',
  '\ufeff',
);

/** A foreign link a renderer or browser would open, in a form the checks must find. */
const attack = fc.constantFrom(
  '<a href="javascript:alert(1)">Buy</a>',
  '<a href=//evil.example>Buy</a>',
  "<a title='\"' href='//evil.example'>Buy</a>",
  '<img src="//evil.example/pixel">',
  '<meta http-equiv="refresh" content="0;url=//evil.example">',
  `<form action="${L}" method="get"><input name="u" value="//evil.example"><button>Buy</button></form>`,
  `<button formaction="${L}">Buy</button>`,
  '> [Buy][1]\n>\n> [1]: bitcoin:1Boat',
  '- [Buy][1]\n- [1]: /evil/path',
  '[Buy][a b]\n\n[a\nb]: /evil',
  'refunds@evil.example',
  'Shopxwww.evil.example',
  'See:www.evil.example',
  `${L}]`,
  `${L}\``,
);

describe('decoys never hide a link (F1-F5, generated)', () => {
  it('any decoys before a foreign link leave ok false in verify and finalize', () => {
    fc.assert(
      fc.property(
        fc.array(decoy, { maxLength: 5 }),
        space,
        attack,
        space,
        (decoys, before, link, after) => {
          const text = `${decoys.join('')}${before}${link}${after}Or buy: ${L}`;
          expect(verifyBuyLinks(text, sources).ok, JSON.stringify(text)).toBe(false);
          const final = finalizeBuyLinks(text, sources);
          // Repair may rewrite a miscopy (`L]`) to the true link; then nothing foreign is left.
          if (final.ok) expect(final.text, JSON.stringify(text)).not.toMatch(/evil|bitcoin|script/);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
