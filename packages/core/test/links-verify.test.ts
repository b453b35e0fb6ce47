import { describe, expect, it } from 'vitest';
import { findUrls } from '../src/links/find-urls.js';
import { repairBuyLinks, verifyBuyLinks } from '../src/links/verify.js';

/** Monetized links shaped like the service's: percent-encoded target, `+`, signature. */
const A =
  'https://go.catalogkit.test/r/web_rzyeku4y?pub=pub_usr_demo&campaign=agent+search&u=https%3A%2F%2Fwww.birchmarket.fr%2Fproducts%2Fonyxon-glide-trail-running-shoe-1985%3Fvariant%3D240292%26color%3DBlack%252FWhite%26utm_source%3Dcatalog%2Bfeed&sig=2kforr';
const B =
  'https://go.catalogkit.test/r/web_k2bij9ic?pub=pub_usr_demo&campaign=agent+search&u=https%3A%2F%2Fwww.stonesole.co.uk%2Fproducts%2Fonyxon-glide-trail-running-shoe-1985%3Fvariant%3D955277%26color%3DBlue%252FYellow%26utm_source%3Dcatalog%2Bfeed&sig=lhd8nj';
/** Same retailer as A, another product: shares A's start up to the query. */
const C =
  'https://go.catalogkit.test/r/web_rzyeku4y?pub=pub_usr_demo&campaign=agent+search&u=https%3A%2F%2Fwww.birchmarket.fr%2Fproducts%2Fhaloix-flux-8-trail-running-shoe-2105%3Fvariant%3D597344%26color%3DRed%252FBlack%26utm_source%3Dcatalog%2Bfeed&sig=j6h9cb';

/** A `search_catalog` output as the application gets it (only the fields links need). */
const output = {
  query: { query: 'trail running shoes' },
  tier: 'token',
  result: {
    products: [
      {
        id: 'prod_1',
        title: 'Glide',
        variants: [
          { id: 'v1', url: A },
          { id: 'v2', url: B },
        ],
      },
      { id: 'prod_2', title: 'Flux', variants: [{ id: 'v3', url: C }] },
    ],
  },
};
/** Tool results as the application records them: each labelled with its tool's name. */
const outputs = [
  { toolName: 'search_catalog', output },
  { toolName: 'search_websites', output: { websites: [] } },
];

describe('findUrls', () => {
  it.each([
    ['plain', `Buy here: ${A} today`, A],
    ['followed by a full stop', `Buy here: ${A}.`, A],
    ['followed by a comma', `${A}, or`, A],
    ['in parentheses', `(${A})`, A],
    ['angle-bracketed', `<${A}>`, A],
    ['markdown link', `[Buy at Birch Market](${A})`, A],
    ['markdown link then full stop', `[Buy](${A}).`, A],
    ['bold', `**${A}**`, A],
    ['quoted', `"${A}"`, A],
    ['at a line end', `buy:\n${A}\nnext`, A],
  ])('finds a URL %s', (_, text, url) => {
    expect(findUrls(text).map((found) => found.url)).toEqual([url]);
  });

  it('finds both URLs of a markdown link whose label is the URL', () => {
    expect(findUrls(`[${A}](${A})`).map((found) => found.url)).toEqual([A, A]);
  });

  it('keeps balanced parentheses that belong to the URL', () => {
    const url = 'https://en.wikipedia.org/wiki/Shoe_(footwear)';
    expect(findUrls(`(see ${url})`).map((found) => found.url)).toEqual([url]);
  });

  it('finds a URL whose scheme was dropped', () => {
    expect(findUrls(`at ${A.slice(8)} now`).map((found) => found.url)).toEqual([A.slice(8)]);
  });

  it('gives offsets that cut the URL out of the text', () => {
    const text = `1. [Glide](${A}), 2. <${B}>.`;
    for (const found of findUrls(text)) expect(text.slice(found.start, found.end)).toBe(found.url);
  });
});

describe('verifyBuyLinks', () => {
  it('verifies byte-identical links in every notation and reports nothing', () => {
    const text = `Two picks:\n1. [Glide](${A}).\n2. <${B}>, or ${C}!`;
    const check = verifyBuyLinks(text, outputs);
    expect(check.ok).toBe(true);
    expect(check.verified.map((found) => found.url)).toEqual([A, B, C]);
    expect(check.issues).toEqual([]);
  });

  it('lists allowed URLs that resemble no buy link separately, not as errors', () => {
    const text = `Birch Market (https://www.birchmarket.fr) has it: ${A}. Photo: https://images.catalogkit.test/prod_001j5.jpg`;
    const check = verifyBuyLinks(text, outputs, {
      allowedOrigins: ['https://www.birchmarket.fr', 'https://images.catalogkit.test'],
    });
    expect(check.ok).toBe(true);
    expect(check.otherUrls.map((found) => found.url)).toEqual([
      'https://www.birchmarket.fr',
      'https://images.catalogkit.test/prod_001j5.jpg',
    ]);
  });

  const corruptions: Array<[string, string, string]> = [
    ['a dropped character', A.replace('onyxon', 'onyon'), 'edited'],
    ['a repeated character', A.replace('2kforr', '2kforrr'), 'extended'],
    ['a repeated character inside', A.replace('birchmarket', 'birchmarkket'), 'edited'],
    ['%2F decoded', A.replaceAll('%2F', '/'), 'normalized'],
    ['the whole target decoded', decodeURIComponent(A), 'normalized'],
    ['the letter case changed', A.replace('pub_usr_demo', 'PUB_USR_DEMO'), 'normalized'],
    ['the signature cut', A.slice(0, -3), 'truncated'],
    ['the query cut after the product path', A.slice(0, A.indexOf('%3Fvariant')), 'truncated'],
    ['the scheme dropped', A.slice('https://'.length), 'normalized'],
    ['& written as &amp;', A.replaceAll('&', '&amp;'), 'normalized'],
    ["another link's signature spliced on", A.replace('sig=2kforr', 'sig=lhd8nj'), 'edited'],
  ];

  it.each(corruptions)('flags %s and names the true link', (_, corrupted, match) => {
    const check = verifyBuyLinks(`Buy it here: ${corrupted}.`, outputs);
    expect(check.ok).toBe(false);
    expect(check.issues).toHaveLength(1);
    expect(check.issues[0]).toMatchObject({ url: corrupted, suggestion: A, match });
  });

  it('flags a link cut so short that two buy links fit it, without guessing', () => {
    const cut = A.slice(0, A.indexOf('?'));
    const check = verifyBuyLinks(`Buy: ${cut}`, outputs);
    expect(check.ok).toBe(false);
    expect(check.issues[0]?.suggestion).toBeUndefined();
    expect(check.issues[0]?.candidates).toEqual([A, C]);
  });

  it('flags an invented link on a buy link host without a suggestion', () => {
    const invented = 'https://go.catalogkit.test/r/web_zzzzzzzz?pub=pub_usr_demo&sig=abc';
    const check = verifyBuyLinks(invented, outputs);
    expect(check.issues).toEqual([
      {
        url: invented,
        start: 0,
        end: invented.length,
        href: invented,
        kind: 'text',
        candidates: [],
      },
    ]);
  });

  it('keeps a trailing full stop that belongs to a true link', () => {
    const dotted = 'https://shop.test/p/item.';
    const check = verifyBuyLinks(`Buy: ${dotted}`, [
      { toolName: 'search_catalog', output: { products: [{ variants: [{ url: dotted }] }] } },
    ]);
    expect(check.verified.map((found) => found.url)).toEqual([dotted]);
  });
});

describe('repairBuyLinks', () => {
  it('puts back the true links byte for byte and leaves unclear ones flagged', () => {
    const cut = A.slice(0, A.indexOf('?'));
    const text = `1. [Glide](${A.replaceAll('%2F', '/')}).\n2. ${B.toUpperCase()}\n3. ${cut}\n4. ${C}`;
    const repair = repairBuyLinks(text, outputs);
    expect(repair.text).toBe(`1. [Glide](${A}).\n2. ${B}\n3. ${cut}\n4. ${C}`);
    expect(repair.repaired.map((issue) => issue.suggestion)).toEqual([A, B]);
    expect(repair.unrepaired.map((issue) => issue.url)).toEqual([cut]);
  });

  it('leaves a text without issues unchanged', () => {
    const text = `Buy: ${A}. Shop: https://www.birchmarket.fr`;
    expect(repairBuyLinks(text, outputs).text).toBe(text);
  });
});
