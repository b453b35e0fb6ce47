import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundedEditDistance } from '../src/links/edit-distance.js';
import { finalizeBuyLinks } from '../src/links/finalize.js';
import { findUrls } from '../src/links/find-urls.js';
import { BuyLinkStreamResolver } from '../src/links/stream.js';
import { verifyBuyLinks } from '../src/links/verify.js';

// The red team's findings F1-F7 against the issue 23 link check (brief findings/links.md),
// each with the input that passed before the fix.

/** A monetized link shaped like the service's. */
const L =
  'https://go.catalogkit.test/r/web_rzyeku4y?pub=pub_usr_demo&campaign=agent+search&u=https%3A%2F%2Fwww.birchmarket.fr%2Fproducts%2Fonyxon-glide%3Fvariant%3D240292&sig=2kforr';
const catalog = {
  toolName: 'search_catalog',
  output: { result: { products: [{ variants: [{ url: L }] }] } },
};
const RUNS = Number(process.env.CATALOGKIT_FUZZ_RUNS) || 200;

/** Both checks of an answer must report it. */
function expectReported(text: string, options = {}) {
  const check = verifyBuyLinks(text, [catalog], options);
  expect(check.ok).toBe(false);
  expect(finalizeBuyLinks(text, [catalog], options).ok).toBe(false);
  return check;
}

describe('F1: a fake tag never hides a real HTML link', () => {
  const hidden: Array<[string, string, string]> = [
    [
      'code span',
      `Use \`<b title="\` for bold.\n\n<a href="javascript:alert(document.cookie)">Buy now</a>\n\nOr [Buy](${L})`,
      'javascript:alert(document.cookie)',
    ],
    ['escaped tag', 'Tip: \\<b title="x\n<a href=//evil.example>Buy now</a>', '//evil.example'],
    [
      'foreign',
      `Use \`<i title="\` then <a href="//evil.example">Buy</a> or ${L}`,
      '//evil.example',
    ],
    ['single quote', `<a title='"' href="//evil.example">x</a> ${L}`, '//evil.example'],
  ];

  it.each(hidden)('%s: the real href is an issue', (_, text, href) => {
    const check = expectReported(text);
    expect(check.issues.map((issue) => issue.href)).toContain(href);
  });

  it('a value that ran over other text is never allowed, so what it covers cannot pass', () => {
    // The first pass takes the fake value whole and jumps over the Markdown link in it.
    const text = `<x href="https://help.shop.example/ [Buy](javascript:alert(1)) "> ${L}`;
    expectReported(text, { allowedOrigins: ['https://help.shop.example'] });
  });
});

describe('F2: active HTML never passes as a verified buy link', () => {
  it('a meta refresh URL is reported, with or without `url=`', () => {
    for (const content of [
      '0;url=//evil.example',
      '0; URL="//evil.example"',
      '5, //evil.example',
    ]) {
      const check = expectReported(`<meta http-equiv="refresh" content='${content}'>\nBuy: ${L}`);
      const refresh = check.issues.find((issue) => issue.attribute === 'content');
      expect(refresh?.href).toMatch(/^\/\/evil\.example/);
    }
  });

  it('a form action (GET replaces the query) is an issue, never verified nor repaired', () => {
    const forms = [
      `<form action="${L}" method="get"><input type="hidden" name="u" value="//evil.example"><button>Buy</button></form>`,
      `<form><button formaction="${L}">Buy</button></form>`,
      `<form action="${L.slice(0, -2)}"><button>Buy</button></form>`,
    ];
    for (const text of forms) {
      const check = expectReported(text);
      expect(check.verified).toEqual([]);
      const final = finalizeBuyLinks(text, [catalog]);
      expect(final.repaired).toEqual([]);
      expect(final.text).toBe(text);
    }
  });

  it('an `<a href>` buy link still verifies', () => {
    expect(verifyBuyLinks(`<a href="${L}">Buy</a>`, [catalog]).ok).toBe(true);
  });
});

describe('F3: every GFM autolink is found', () => {
  const words = [
    'Contact support@evil.com for a refund',
    'Write to refunds@evil.example',
    'Shopxwww.evil.example today',
    'See:www.evil.example',
    'Shop>www.evil.com now',
    'Shop\uff5cwww.evil.com now',
    'Shop\u2002www.evil.com now',
    'Shop\u0085www.evil.com now',
    'Shop\u2028www.evil.com now',
    'Shop\u205fwww.evil.com now',
    'Shop\ufeffwww.evil.com now',
  ];
  it.each(words)('%j is reported', (text) => {
    expectReported(`${text} ${L}`);
  });

  it('true links after any Unicode space still verify', () => {
    expect(verifyBuyLinks(`Buy:\u2002${L}\u0085${L}\u3000`, [catalog]).verified).toHaveLength(2);
  });
});

describe('F4: reference definitions are found inside containers and after multi-line labels', () => {
  const definitions = [
    '> [Buy][1]\n>\n> [1]: bitcoin:1BoatSLRHtKNngkdXEeobR76b53LETtpyT',
    '- [Buy][1]\n- [1]: /evil/path',
    '1. [Buy][1]\n2. [1]: /evil/path',
    '[Buy][foo bar]\n\n[foo\nbar]: /evil',
  ];
  it.each(definitions)('%j is reported', (text) => {
    const check = expectReported(`${text}\n\n${L}`);
    expect(check.issues[0]?.kind).toBe('markdown');
  });
});

describe('F5: a link is judged with the characters a renderer keeps at its end', () => {
  it.each([']', '}', '>', '`'])('%s after a buy link is not verified (GFM links it too)', (end) => {
    const text = `Buy here: ${L}${end} now`;
    const check = verifyBuyLinks(text, [catalog]);
    expect(check.verified).toEqual([]);
    expect(check.ok).toBe(false);
    expect(check.issues[0]?.url).toBe(`${L}${end}`);
    // Repair puts the true link back, without the character.
    const final = finalizeBuyLinks(text, [catalog]);
    expect(final.text).toBe(`Buy here: ${L} now`);
  });

  it('sentence punctuation and an unopened `)` are still trimmed', () => {
    for (const end of ['.', ',', ')', '!', '?', ';', ':', '"', "'"]) {
      expect(verifyBuyLinks(`(Buy here: ${L}${end} now`, [catalog]).verified).toHaveLength(1);
    }
  });
});

/** A copy of the buy link with one character changed at a place that depends on `i`. */
function nearMiss(i: number): string {
  const at = 40 + ((i * 7) % (L.length - 60));
  return L.slice(0, at) + String.fromCharCode(97 + (i % 26)) + L.slice(at + 1);
}
const nearMisses = (n: number) => Array.from({ length: n }, (_, i) => nearMiss(i)).join(' ');

describe('F6: matching near misses costs a fixed bound, whatever the filler', () => {
  it('verdicts do not depend on filler around the links', () => {
    const links = nearMisses(1_990);
    const plain = verifyBuyLinks(links, [catalog]);
    const padded = verifyBuyLinks(`${links} ${'word '.repeat(200_000)}`, [catalog]);
    const suggested = (check: typeof plain) => check.issues.filter((i) => i.suggestion).length;
    // The budget runs out before the end (the rest is reported without a suggestion) ...
    expect(suggested(plain)).toBeLessThan(plain.issues.length);
    // ... at the same link, with or without a megabyte of filler after them.
    expect(suggested(padded)).toBe(suggested(plain));
    expect(padded.ok).toBe(false);
  });

  it('edit distance only writes its band: equal 200,000-character strings stay cheap', () => {
    // Before, each row was filled whole: 4e10 cell writes here (minutes); now about 2e6.
    const long = 'ab'.repeat(100_000);
    const started = performance.now();
    expect(boundedEditDistance(long, long, 4)).toBe(0);
    expect(boundedEditDistance(long, `x${long.slice(1)}`, 4)).toBe(1);
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it('edit distance equals the full Levenshtein distance whenever within the bound', () => {
    const levenshtein = (a: string, b: string): number => {
      let row = Array.from({ length: b.length + 1 }, (_, j) => j);
      for (let i = 1; i <= a.length; i++) {
        const next = [i];
        for (let j = 1; j <= b.length; j++) {
          next[j] = Math.min(
            row[j]! + 1,
            next[j - 1]! + 1,
            row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
          );
        }
        row = next;
      }
      return row[b.length]!;
    };
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 24 });
    fc.assert(
      fc.property(text, text, fc.integer({ min: 0, max: 6 }), (a, b, max) => {
        const exact = levenshtein(a, b);
        expect(boundedEditDistance(a, b, max)).toBe(exact <= max ? exact : max + 1);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('F7: a stream with repair has one budget for the whole stream', () => {
  it('repairs exactly what checking the whole text repairs, in bounded time', () => {
    const text = `${nearMisses(2_000)} `;
    const started = performance.now();
    const resolver = new BuyLinkStreamResolver({ toolOutputs: [catalog], repair: true });
    let shown = '';
    for (let i = 0; i < text.length; i += 60) shown += resolver.write(text.slice(i, i + 60));
    shown += resolver.end();
    // It took 50 s before (a fresh budget per chunk); generous for a loaded 2-core machine.
    expect(performance.now() - started).toBeLessThan(10_000);
    const whole = finalizeBuyLinks(text, [catalog]);
    expect(resolver.repaired.length).toBeLessThan(2_000);
    expect(resolver.repaired.length).toBe(whole.repaired.length);
    expect(shown).toBe(whole.text);
  });
});

describe('the scan finds what these fixes added, and nothing twice', () => {
  it('an `<a href>` is found once although both passes see it', () => {
    expect(findUrls(`<a href="${L}">Buy</a>`)).toHaveLength(1);
  });
});
