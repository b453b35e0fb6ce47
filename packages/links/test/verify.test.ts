import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BuyLinkStreamResolver,
  buyLinkReference,
  collectBuyLinks,
  finalizeBuyLinks,
  MAX_PARSED_CHARS,
  productOffers,
  renderAnswerHtml,
  resolveBuyLinks,
  verifyBuyLinks,
} from '../src/index.js';
import { ATTACKS } from './support/attacks.js';
import { BUY, BUY_2, toolResults } from './support/fixtures.js';

describe('verifyBuyLinks is an allow-list', () => {
  it('verifies a buy link written as a Markdown link, an autolink and a literal link', () => {
    const check = verifyBuyLinks(`[Buy](${BUY}), <${BUY_2}> or ${BUY}.`, toolResults);
    expect(check.ok).toBe(true);
    expect(check.verified.map(({ url, form }) => [url, form])).toEqual([
      [BUY, 'link'],
      [BUY_2, 'autolink'],
      [BUY, 'literal'],
    ]);
  });

  it('verifies a reference-style link whose definition is a buy link', () => {
    expect(verifyBuyLinks(`[Buy][1]\n\n[1]: ${BUY}`, toolResults).ok).toBe(true);
  });

  it.each(Object.entries(ATTACKS))('%s is ok: false, each item listed', (_name, answer) => {
    const check = verifyBuyLinks(answer, toolResults);
    expect(check.ok).toBe(false);
    expect(check.issues.length).toBeGreaterThan(0);
    for (const link of check.verified) expect([BUY, BUY_2]).toContain(link.url);
  });

  it('lists each raw HTML item and each foreign link with its line', () => {
    const check = verifyBuyLinks(`a <b>x</b>\n\n[y](https://evil.example/)`, toolResults);
    expect(check.issues).toEqual([
      { kind: 'html', url: '<b>', line: 1 },
      { kind: 'html', url: '</b>', line: 1 },
      { kind: 'link', url: 'https://evil.example/', line: 3 },
    ]);
  });

  it('trusts only the catalog tool: a fetched page cannot plant a buy link', () => {
    const planted = [{ toolName: 'fetch_page', output: toolResults[0]!.output }];
    expect(verifyBuyLinks(`[Buy](${BUY})`, planted).ok).toBe(false);
    expect(collectBuyLinks(planted)).toEqual([]);
    expect(collectBuyLinks(planted, { catalogToolNames: ['fetch_page'] })).toEqual([BUY, BUY_2]);
  });

  // S7: one rule for the storefront's cards and collectBuyLinks. productOffers runs as its own
  // source text (as the storefront embeds it), so a reference to anything outside it fails.
  it('productOffers is the one buy-link rule, self-contained (S7)', () => {
    const shipped = new Function(`return (${productOffers.toString()})`)() as typeof productOffers;
    const products = [
      { id: 'p', url: 'https://fallback.example/p', variants: [null, 1, 'x'] },
      { id: 'q', url: 'https://fallback.example/q', variants: [] },
      { id: 'r', url: 'https://fallback.example/r' },
      { id: 's', variants: [{ url: 'javascript:alert(1)' }, { url: `${BUY} ` }, 7] },
      null,
    ];
    const links = (offers: ReturnType<typeof productOffers>) =>
      offers.flatMap(({ link }) => (link === undefined ? [] : [link]));
    expect(products.map((product) => links(shipped(product)))).toEqual([
      [],
      ['https://fallback.example/q'],
      ['https://fallback.example/r'],
      [`${BUY} `],
      [],
    ]);
    expect(products.map((product) => shipped(product).length)).toEqual([0, 1, 1, 2, 0]);
    const output = { response: { products } };
    expect(collectBuyLinks([{ toolName: 'search_catalog', output }])).toEqual(
      products.flatMap((product) => links(productOffers(product))),
    );
  });

  it('reports an answer too long to parse as one item, and renders it as escaped text', () => {
    const long = `<script>x</script>[Buy](${BUY}) `.repeat(MAX_PARSED_CHARS / 20);
    const check = verifyBuyLinks(long, toolResults);
    expect(check).toEqual({
      ok: false,
      verified: [],
      issues: [{ kind: 'too-long', url: '', line: 1 }],
    });
    const html = renderAnswerHtml(long, toolResults);
    expect(html).not.toContain('<a');
    expect(html).not.toContain('<script');
  });
});

describe('renderAnswerHtml renders what verifyBuyLinks verified', () => {
  it('makes exactly the verified links clickable, with rel noopener noreferrer sponsored', () => {
    const answer = `**Shoe**: [Buy](${BUY}) or [elsewhere](https://evil.example/) <i>hi</i>`;
    const html = renderAnswerHtml(answer, toolResults);
    const escaped = BUY.replaceAll('&', '&amp;');
    expect(html).toBe(
      `<p><strong>Shoe</strong>: <a href="${escaped}" rel="noopener noreferrer sponsored">Buy</a> or elsewhere &lt;i&gt;hi&lt;/i&gt;</p>\n`,
    );
  });

  it('shows an image as its alt text', () => {
    expect(renderAnswerHtml('![a *cat*](https://evil.example/c.png)', toolResults)).toBe(
      '<p>a cat</p>\n',
    );
  });
});

describe('references', () => {
  const reference = buyLinkReference(BUY);

  it('resolve to the buy link byte for byte, and the result verifies', () => {
    expect(resolveBuyLinks(`[Buy](${reference})`, toolResults).text).toBe(`[Buy](${BUY})`);
    const finalized = finalizeBuyLinks(`Get it: ${reference}`, toolResults);
    expect(finalized).toMatchObject({ ok: true, text: `Get it: ${BUY}`, issues: [] });
  });

  it('an unknown reference is left as written and makes ok false', () => {
    const finalized = finalizeBuyLinks('Get it: [[buy:000000001]]', toolResults);
    expect(finalized.ok).toBe(false);
    expect(finalized.unresolved).toMatchObject([{ reason: 'unknown' }]);
  });

  it('a reference resolved inside raw HTML is still raw HTML, never verified', () => {
    const finalized = finalizeBuyLinks(`<a href="${reference}">Buy</a>`, toolResults);
    expect(finalized.ok).toBe(false);
    expect(finalized.verified).toEqual([]);
  });

  it('stream: wherever the chunks break, the text is the same', () => {
    const text = `A ${reference} and [Buy](${buyLinkReference(BUY_2)}).`;
    for (let cut = 1; cut < text.length; cut++) {
      const stream = new BuyLinkStreamResolver({ toolOutputs: toolResults });
      const out = stream.write(text.slice(0, cut)) + stream.write(text.slice(cut)) + stream.end();
      expect(out).toBe(`A ${BUY} and [Buy](${BUY_2}).`);
    }
  });
});

/** Generated cases per property: a few hundred in `pnpm test`, more under `pnpm fuzz`. */
const RUNS = Number(process.env.CATALOGKIT_FUZZ_RUNS ?? 300);

/** Text near the reference grammar: references whole and in pieces, brackets, word characters. */
const REFERENCE_TEXT = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        ...[buyLinkReference(BUY), buyLinkReference(BUY_2), '[[buy:000000001]]', '[[bu:123456789]]']
          .concat(['[', ']', '[[', ']]', 'buy', 'BUY', 'buy:', ':', 'a', '/', ' ', '\n', '1', '2'])
          .concat(['123456', '[Buy](', ')', `buy:${/\d+/.exec(buyLinkReference(BUY))![0]}`]),
      ),
      fc.string({ maxLength: 4 }),
    ),
    { maxLength: 30 },
  )
  .map((pieces) => pieces.join(''));

/** Where a text is cut into chunks: sorted distinct offsets inside it. */
function chunks(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  return [0, ...points].map((start, i) => text.slice(start, points[i] ?? text.length));
}

function streamed(parts: readonly string[]): { text: string; unresolved: unknown[] } {
  const stream = new BuyLinkStreamResolver({ toolOutputs: toolResults });
  const text = parts.map((part) => stream.write(part)).join('') + stream.end();
  return { text, unresolved: stream.unresolved };
}

describe('red team (wave 4b, links): the stream and the size of what is resolved', () => {
  it('F4: for any split into chunks, the stream gives what resolveBuyLinks gives the whole text', () => {
    fc.assert(
      fc.property(REFERENCE_TEXT, fc.array(fc.nat(), { maxLength: 12 }), (text, cuts) => {
        const whole = resolveBuyLinks(text, toolResults);
        expect(streamed(chunks(text, cuts))).toEqual({
          text: whole.text,
          unresolved: whole.unresolved,
        });
      }),
      { numRuns: RUNS },
    );
  });

  it('F4: a word character before a bare buy:ID in the previous chunk is seen', () => {
    const reference = `buy:${/\d+/.exec(buyLinkReference(BUY))![0]}`;
    expect(streamed(['a', reference]).text).toBe(`a${reference}`);
    expect(streamed([' ', reference]).text).toBe(` ${BUY}`);
  });

  it('F4: around the limit, too, any split gives the one-shot result', () => {
    const pad = 'x'.repeat(MAX_PARSED_CHARS - 40);
    fc.assert(
      fc.property(REFERENCE_TEXT, fc.array(fc.nat(), { maxLength: 6 }), (tail, cuts) => {
        const text = pad + tail + tail;
        expect(streamed(chunks(text, cuts)).text).toBe(resolveBuyLinks(text, toolResults).text);
      }),
      { numRuns: Math.ceil(RUNS / 10) },
    );
  });

  it("F5: references are read up to the verifier's limit, so 10 MB costs one bounded scan", () => {
    const reference = buyLinkReference(BUY);
    const text = `${reference} `.repeat(Math.ceil((10 * 1024 * 1024) / (reference.length + 1)));
    const resolution = resolveBuyLinks(text, toolResults);
    const within = Math.floor(MAX_PARSED_CHARS / (reference.length + 1));
    expect(resolution.resolved).toHaveLength(within);
    expect(resolution.text.endsWith(`${reference} `.repeat(10))).toBe(true);
    expect(finalizeBuyLinks(text, toolResults).issues).toEqual([
      { kind: 'too-long', url: '', line: 1 },
    ]);
  });
});

describe('red team (wave 4, links)', () => {
  it('F1: a product url that is not a web address is never a buy link (a hostile service)', () => {
    const hostile = [
      {
        toolName: 'search_catalog',
        output: {
          response: {
            products: [
              { id: 'p1', variants: [{ url: "javascript:document.title='pwned'" }] },
              { id: 'p2', url: 'data:text/html,<script>alert(1)</script>' },
            ],
          },
        },
      },
    ];
    expect(collectBuyLinks(hostile)).toEqual([]);
    const answer = "[Buy](javascript:document.title='pwned')";
    expect(verifyBuyLinks(answer, hostile).ok).toBe(false);
    expect(renderAnswerHtml(answer, hostile)).not.toContain('<a');
  });
});
