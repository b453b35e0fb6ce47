import { describe, expect, it } from 'vitest';
import { finalizeBuyLinks } from '../src/links/finalize.js';
import { findUrls } from '../src/links/find-urls.js';
import { buyLinkReference } from '../src/links/references.js';
import { BuyLinkReferences, resolveBuyLinks } from '../src/links/resolve.js';
import { BuyLinkStreamResolver } from '../src/links/stream.js';
import { repairBuyLinks, verifyBuyLinks } from '../src/links/verify.js';

/** A monetized link shaped like the service's. */
const L =
  'https://go.catalogkit.test/r/web_rzyeku4y?pub=pub_usr_demo&campaign=agent+search&u=https%3A%2F%2Fwww.birchmarket.fr%2Fproducts%2Fonyxon-glide%3Fvariant%3D240292&sig=2kforr';
const catalog = {
  toolName: 'search_catalog',
  output: { result: { products: [{ variants: [{ url: L }] }] } },
};

/** Prefixes that make a browser open another site (or run script) around a true link. */
const PREFIXES = [
  '//evil.example/',
  'javascript:alert(1)//',
  'data:text/html,',
  'ftp://evil/',
  'https:\\\\evil\\',
  'https://evil.example/?u=',
  'https://evil.example#',
  'http://evil.example/redirect/',
  '\\\\evil.example/',
  'vbscript:',
];

describe('a true link inside another href is judged as the whole href (issue 23)', () => {
  it.each(PREFIXES)('[Buy](%s + link) is never verified and keeps ok false', (prefix) => {
    const text = `[Buy](${prefix}${L})`;
    const check = verifyBuyLinks(text, [catalog]);
    expect(check.verified).toEqual([]);
    expect(check.ok).toBe(false);
    expect(check.issues[0]?.url).toBe(`${prefix}${L}`);
    const final = finalizeBuyLinks(text, [catalog]);
    expect(final.ok).toBe(false);
    // Not "repaired" to the true link either: the href leads elsewhere.
    expect(final.repaired).toEqual([]);
    expect(final.text).toBe(text);
  });

  it.each(PREFIXES)('%s + link in running text is one link, never the inner one', (prefix) => {
    const check = verifyBuyLinks(`Buy it: ${prefix}${L} today`, [catalog]);
    expect(check.verified).toEqual([]);
    expect(check.ok).toBe(false);
  });

  it('a reference resolved inside a foreign href makes a foreign link, not a verified one', () => {
    const final = finalizeBuyLinks(`[Buy](//evil.example/${buyLinkReference(L)})`, [catalog]);
    expect(final.resolved).toHaveLength(1);
    expect(final.ok).toBe(false);
    expect(final.unrepaired[0]?.href).toBe(`//evil.example/${L}`);
  });
});

describe('every form a renderer makes clickable is found (issue 23)', () => {
  const forms: Array<[string, string, string]> = [
    ['protocol-relative', 'Shop: //evil.example/deal', '//evil.example/deal'],
    ['backslashes', 'Shop: https:\\\\evil.example\\deal', 'https:\\evil.example\\deal'],
    ['an entity for the colon', 'Shop: https&#58;//evil.example/deal', 'https://evil.example/deal'],
    ['a named entity', 'Shop: https&colon;//evil.example/deal', 'https://evil.example/deal'],
    ['a tab inside the scheme', 'Shop: ht\ttps://evil.example/deal', 'tps://evil.example/deal'],
    ['bare www.', 'Shop: www.evil.example/deal', 'www.evil.example/deal'],
    [
      'a data: URL',
      'Shop: data:text/html;base64,PHNjcmlwdD4=',
      'data:text/html;base64,PHNjcmlwdD4=',
    ],
    ['javascript:', 'Shop: javascript:alert(document.cookie)', 'javascript:alert(document.cookie)'],
    ['a markdown target of any scheme', '[Buy](mailto:x@evil.example)', 'mailto:x@evil.example'],
    ['a relative markdown target', '[Buy](/cart/add?id=1)', '/cart/add?id=1'],
    ['an autolink', 'Shop <ftp://evil.example/x>', 'ftp://evil.example/x'],
    ['an HTML href', '<a href="//evil.example/x">Buy</a>', '//evil.example/x'],
    ['an entity-encoded href', '<a href="java&#x73;cript:alert(1)">Buy</a>', 'javascript:alert(1)'],
    ['a tab in an href', '<a href="java&#9;script:alert(1)">Buy</a>', 'javascript:alert(1)'],
    [
      'an image',
      '![x](https://evil.example/pixel?secret=1)',
      'https://evil.example/pixel?secret=1',
    ],
    ['a reference definition', '[Buy][1]\n\n[1]: //evil.example/x', '//evil.example/x'],
    ['an escaped markdown target', '[Buy](https:\\/\\/evil.example/x)', 'https://evil.example/x'],
  ];

  it.each(forms)('finds %s and reports it (ok false)', (_, text, href) => {
    expect(findUrls(text).map((found) => found.href)).toContain(href);
    const check = verifyBuyLinks(`${text}\n${L}`, [catalog]);
    expect(check.ok).toBe(false);
    expect(check.verified.map((found) => found.url)).toEqual([L]);
  });

  it('a link an app allows passes; a look-alike origin does not', () => {
    const text = `Help: https://help.shop.example/returns, ${L}`;
    expect(
      verifyBuyLinks(text, [catalog], { allowedOrigins: ['https://help.shop.example'] }).ok,
    ).toBe(true);
    const spoof = `Help: https://help.shop.example.evil.example/returns ${L}`;
    expect(
      verifyBuyLinks(spoof, [catalog], { allowedOrigins: ['https://help.shop.example'] }).ok,
    ).toBe(false);
  });

  it('a URL of the catalog results that is not a buy link (a seller page) is allowed as written', () => {
    const seller = 'https://www.birchmarket.fr';
    const withSeller = {
      toolName: 'search_catalog',
      output: {
        result: { products: [{ variants: [{ url: L, seller: { links: [{ url: seller }] } }] }] },
      },
    };
    const check = verifyBuyLinks(`Shop at ${seller} or ${L}`, [withSeller]);
    expect(check.ok).toBe(true);
    expect(check.otherUrls.map((found) => found.url)).toEqual([seller]);
  });

  it('never rewrites a verified link, and repairs a miscopy only on its own host', () => {
    const miscopy = L.replaceAll('%2F', '/');
    const repair = repairBuyLinks(`1. ${L}\n2. ${miscopy}\n3. //evil.example/${miscopy}`, [
      catalog,
    ]);
    expect(repair.text).toBe(`1. ${L}\n2. ${L}\n3. //evil.example/${miscopy}`);
    expect(repair.unrepaired.map((issue) => issue.suggestion)).toEqual([undefined]);
  });
});

describe('only the catalog tool is a source of buy links (issue 23)', () => {
  const evil = 'https://evil.example/checkout';
  const fetched = {
    toolName: 'web_fetch',
    output: { products: [{ variants: [{ url: evil }] }], result: { products: [{ url: evil }] } },
  };

  it("another tool's output shaped like a catalog result verifies nothing and resolves no reference", () => {
    const check = verifyBuyLinks(`Buy: ${evil}`, [catalog, fetched]);
    expect(check.verified).toEqual([]);
    expect(check.ok).toBe(false);
    const resolution = resolveBuyLinks(`Buy: ${buyLinkReference(evil)}`, [catalog, fetched]);
    expect(resolution.resolved).toEqual([]);
    expect(resolution.unresolved).toHaveLength(1);
  });

  it('a bare output without a tool name is not trusted', () => {
    const bare = [{ products: [{ variants: [{ url: evil }] }] }] as unknown as (typeof fetched)[];
    expect(verifyBuyLinks(`Buy: ${evil}`, bare).ok).toBe(false);
  });

  it('provenance survives a JSON round trip, and a renamed catalog tool can be trusted', () => {
    const stored = JSON.parse(JSON.stringify([catalog, fetched])) as Array<typeof catalog>;
    expect(verifyBuyLinks(`Buy: ${L}`, stored).ok).toBe(true);
    expect(verifyBuyLinks(`Buy: ${evil}`, stored).ok).toBe(false);
    const renamed = { ...catalog, toolName: 'find_products' };
    expect(verifyBuyLinks(`Buy: ${L}`, [renamed]).ok).toBe(false);
    expect(verifyBuyLinks(`Buy: ${L}`, [renamed], { catalogToolNames: ['find_products'] }).ok).toBe(
      true,
    );
  });

  it('AI SDK model-message tool results (`{ type: "json", value }`) are read', () => {
    const part = {
      type: 'tool-result',
      toolName: 'search_catalog',
      output: { type: 'json', value: catalog.output },
    };
    expect(verifyBuyLinks(`Buy: ${L}`, [part]).ok).toBe(true);
  });

  it('a stream resolver trusts only the catalog tool results added to it', () => {
    const resolver = new BuyLinkStreamResolver({ repair: true });
    resolver.addToolResult('web_fetch', fetched.output);
    const text = resolver.write(`See ${buyLinkReference(evil)} `) + resolver.end();
    expect(text).toBe(`See ${buyLinkReference(evil)} `);
    expect(resolver.unresolved).toHaveLength(1);
    const references = new BuyLinkReferences([catalog, fetched]);
    expect(references.links()).toEqual([L]);
  });
});

describe('scanning is linear (issue 23)', () => {
  // The quadratic scan took 8.7 s for the first input and 57 s for 100 KB of `)`; these
  // bounds are generous for a loaded machine and still far below that.
  const hostile: Array<[string, string]> = [
    ['a URL followed by 40,000 `)`', `see https://x.test/${')'.repeat(40_000)}`],
    ['100 KB of `)`', ')'.repeat(100_000)],
    ['1 MB of `(` and `)` after a URL', `https://x.test/${'()'.repeat(500_000)}`],
    ['1 MB of short URLs', 'https://x.test/a '.repeat(60_000)],
    ['1 MB of near-miss buy links', `${L.slice(0, -3)}x `.repeat(5_000)],
    ['1 MB without spaces', `https://x.test/${'a.'.repeat(500_000)}`],
    ['1 MB of unclosed tags', '<a href=x '.repeat(100_000)],
    ['1 MB of markdown targets', '[x](//e.test/a)'.repeat(70_000)],
    ['1 MB of entities', `https://x.test/${'&#58;'.repeat(200_000)}`],
  ];

  it.each(hostile)('verifies and finalizes %s within a bound', (_, text) => {
    const started = performance.now();
    verifyBuyLinks(text, [catalog]);
    finalizeBuyLinks(text, [catalog]);
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it('a stream with repair holds back a bounded word, and reports an overlong one', () => {
    const unrepaired: string[] = [];
    const resolver = new BuyLinkStreamResolver({
      toolOutputs: [catalog],
      repair: true,
      onUnrepaired: (issue) => unrepaired.push(issue.url.slice(0, 20)),
    });
    const started = performance.now();
    let shown = resolver.write('See ');
    for (let i = 0; i < 20_000; i++) shown += resolver.write('//evil.example/'.repeat(4));
    shown += resolver.write(' done') + resolver.end();
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(shown.length).toBe(4 + 20_000 * 60 + 5);
    expect(unrepaired[0]).toBe('//evil.example///evi');
  });
});
