import { describe, expect, it } from 'vitest';
import { finalizeBuyLinks } from '../src/links/finalize.js';
import { buyLinkReference } from '../src/links/references.js';
import { resolveBuyLinks } from '../src/links/resolve.js';
import { BuyLinkStreamResolver } from '../src/links/stream.js';

const A =
  'https://go.catalogkit.test/r/web_rzyeku4y?pub=pub_usr_demo&campaign=agent+search&u=https%3A%2F%2Fwww.birchmarket.fr%2Fproducts%2Fonyxon-glide%3Fvariant%3D240292&sig=2kforr';
const B =
  'https://go.catalogkit.test/r/web_k2bij9ic?pub=pub_usr_demo&campaign=agent+search&u=https%3A%2F%2Fwww.stonesole.co.uk%2Fproducts%2Fonyxon-glide%3Fvariant%3D955277&sig=lhd8nj';
const output = {
  result: { products: [{ id: 'p', title: 'Glide', variants: [{ url: A }, { url: B }] }] },
};
/** The output labelled with the catalog tool's name, as the application records it. */
const source = { toolName: 'search_catalog', output };
const refA = buyLinkReference(A);
const refB = buyLinkReference(B);
const idOf = (reference: string) => /\d+/.exec(reference)![0];

describe('buyLinkReference', () => {
  it('is short, the same on every call, and differs between links', () => {
    expect(refA).toMatch(/^\[\[buy:\d{9}\]\]$/);
    expect(buyLinkReference(A)).toBe(refA);
    expect(refB).not.toBe(refA);
  });
});

describe('resolveBuyLinks', () => {
  it('turns references back into the exact links, wherever the model put them', () => {
    const text = `1. [Glide at Birch Market](${refA})\n2. Stone Sole: ${refB}.`;
    const resolution = resolveBuyLinks(text, [source]);
    expect(resolution.text).toBe(`1. [Glide at Birch Market](${A})\n2. Stone Sole: ${B}.`);
    expect(resolution.resolved).toEqual([
      { reference: refA, link: A },
      { reference: refB, link: B },
    ]);
    expect(resolution.unresolved).toEqual([]);
  });

  it('takes a lost or missing bracket with the reference, leaving none around the link', () => {
    const id = idOf(refA);
    const text = `[[buy:${id}] [buy:${id}]] [buy:${id}] [[buy:${id} end`;
    expect(resolveBuyLinks(text, [source]).text).toBe(`${A} ${A} ${A} ${A} end`);
  });

  it('forgives spaces and letter case in a reference, and a bare buy:ID link target', () => {
    const text = `[[ BUY: ${idOf(refA)} ]] and [Buy](buy:${idOf(refB)})`;
    expect(resolveBuyLinks(text, [source]).text).toBe(`${A} and [Buy](${B})`);
  });

  it('reports a mistyped reference and leaves it as written', () => {
    const typo = `[[buy:${idOf(refA).slice(0, -1)}]]`;
    const text = `Buy: ${typo}`;
    const resolution = resolveBuyLinks(text, [source]);
    expect(resolution.text).toBe(text);
    expect(resolution.unresolved).toEqual([
      { reference: typo, start: 5, end: 5 + typo.length, reason: 'unknown' },
    ]);
  });

  it('reports a reference damaged past reading instead of passing it off as text', () => {
    const broken = `[[bu:${idOf(refA)}]]`;
    const resolution = resolveBuyLinks(`Buy: ${broken} [[note]] [[2026]]`, [source]);
    expect(resolution.unresolved).toEqual([
      { reference: broken, start: 5, end: 5 + broken.length, reason: 'malformed' },
    ]);
  });

  it('reports a reference from outputs it was not given', () => {
    expect(resolveBuyLinks(`Buy: ${refA}`, []).unresolved).toHaveLength(1);
  });

  it('lets the application choose what an unresolved reference becomes', () => {
    const resolution = resolveBuyLinks('Buy: [[buy:000000001]]', [source], {
      unresolved: () => '(link unavailable)',
    });
    expect(resolution.text).toBe('Buy: (link unavailable)');
    expect(resolution.unresolved).toHaveLength(1);
  });

  it('leaves ordinary words and brackets alone', () => {
    const text = 'Where to buy: [Birch Market] [[note]] buy:now buy 2 for $10 [1]';
    expect(resolveBuyLinks(text, [source])).toEqual({ text, resolved: [], unresolved: [] });
  });
});

describe('BuyLinkStreamResolver', () => {
  const text = `Top picks:\n1. [Glide](${refA}) at $99.99\n2. ${refB}, or [[buy:000000001]]. Buy now [x]`;
  const expected = `Top picks:\n1. [Glide](${A}) at $99.99\n2. ${B}, or [[buy:000000001]]. Buy now [x]`;

  function streamed(chunks: string[]): { text: string; unresolved: number } {
    const resolver = new BuyLinkStreamResolver();
    resolver.addToolResult('search_catalog', output);
    const out = chunks.map((chunk) => resolver.write(chunk)).join('') + resolver.end();
    return { text: out, unresolved: resolver.unresolved.length };
  }

  it('gives the same text for a chunk boundary at every position', () => {
    for (let cut = 0; cut <= text.length; cut++) {
      expect(streamed([text.slice(0, cut), text.slice(cut)]), `cut at ${cut}`).toEqual({
        text: expected,
        unresolved: 1,
      });
    }
  });

  it('gives the same text streamed one character at a time, and for two cuts everywhere in a reference', () => {
    expect(streamed([...text])).toEqual({ text: expected, unresolved: 1 });
    const start = text.indexOf(refA);
    for (let i = start; i <= start + refA.length; i++) {
      for (let j = i; j <= start + refA.length; j++) {
        expect(streamed([text.slice(0, i), text.slice(i, j), text.slice(j)]).text).toBe(expected);
      }
    }
  });

  it('gives the same text as resolving it whole, for odd spacing and brackets cut anywhere', () => {
    const id = idOf(refA);
    const odd = `a [[ buy : ${id} ] ] b [buy:${id}] c buy:${id}. [[buy:${id} d [[note]] [[bu:${id}]] e`;
    const whole = resolveBuyLinks(odd, [source]).text;
    for (let i = 0; i <= odd.length; i++) {
      for (let j = i; j <= odd.length; j += 7) {
        expect(streamed([odd.slice(0, i), odd.slice(i, j), odd.slice(j)]).text).toBe(whole);
      }
    }
  });

  it('with repair, repairs miscopied links like repairBuyLinks, whatever the chunk boundary', () => {
    const answer = `1. ${refA}\n2. <${B.replaceAll('%2F', '/')}>, or ${A.slice(0, -2)}. Shop: https://www.example.com/x`;
    const whole = finalizeBuyLinks(answer, [source]).text;
    expect(whole).toBe(`1. ${A}\n2. <${B}>, or ${A}. Shop: https://www.example.com/x`);
    for (let cut = 0; cut <= answer.length; cut++) {
      const resolver = new BuyLinkStreamResolver({ toolOutputs: [source], repair: true });
      const text =
        resolver.write(answer.slice(0, cut)) + resolver.write(answer.slice(cut)) + resolver.end();
      expect(text, `cut at ${cut}`).toBe(whole);
      expect(resolver.repaired).toHaveLength(2);
    }
  });

  it('with repair, reports a link it cannot match and holds back only the last word', () => {
    const unrepaired: string[] = [];
    const resolver = new BuyLinkStreamResolver({
      toolOutputs: [source],
      repair: true,
      onUnrepaired: (issue) => unrepaired.push(issue.url),
    });
    expect(resolver.write('See https://go.catalogkit.test/r/web_')).toBe('See ');
    expect(resolver.write('zzz?sig=1 now')).toBe('https://go.catalogkit.test/r/web_zzz?sig=1 ');
    expect(resolver.end()).toBe('now');
    expect(unrepaired).toEqual(['https://go.catalogkit.test/r/web_zzz?sig=1']);
  });

  it('never holds back more than an unfinished reference', () => {
    const resolver = new BuyLinkStreamResolver({ toolOutputs: [source] });
    expect(resolver.write('Hello there, ')).toBe('Hello there, ');
    expect(resolver.write('see [[bu')).toBe('see ');
    expect(resolver.write(`y:${idOf(refA)}]] now`)).toBe(`${A} now`);
    expect(resolver.end()).toBe('');
  });

  it('reports unresolved references as it finds them, with their position', () => {
    const seen: string[] = [];
    const resolver = new BuyLinkStreamResolver({
      onUnresolved: (issue) => seen.push(issue.reference),
    });
    resolver.write('ab [[buy:1');
    resolver.write('23]] cd');
    resolver.end();
    expect(seen).toEqual(['[[buy:123]]']);
    expect(resolver.unresolved[0]).toMatchObject({ start: 3, end: 14, reason: 'unknown' });
  });
});

describe('finalizeBuyLinks', () => {
  it('resolves references, repairs corrupted links and reports what is left', () => {
    const text = `1. ${refA}\n2. ${B.replaceAll('%2F', '/')}\n3. [[buy:000000001]]`;
    const final = finalizeBuyLinks(text, [source]);
    expect(final.text).toBe(`1. ${A}\n2. ${B}\n3. [[buy:000000001]]`);
    expect(final.resolved).toEqual([{ reference: refA, link: A }]);
    expect(final.repaired.map((issue) => issue.suggestion)).toEqual([B]);
    expect(final.unresolved.map((issue) => issue.reference)).toEqual(['[[buy:000000001]]']);
    expect(final.ok).toBe(false);
  });

  it('only reports corrupted links when repair is off', () => {
    const text = `Buy: ${A.toUpperCase()}`;
    const final = finalizeBuyLinks(text, [source], { repair: false });
    expect(final.text).toBe(text);
    expect(final.unrepaired.map((issue) => issue.suggestion)).toEqual([A]);
    expect(final.ok).toBe(false);
    expect(finalizeBuyLinks(`Buy: ${A}`, [source]).ok).toBe(true);
  });
});
