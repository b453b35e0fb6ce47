/*
 * The link check fails closed where the parsers disagree (the links red team's L1–L7): verify
 * reads an answer as markdown-it does (renderAnswerHtml); react-markdown and Streamdown read it
 * with remark-gfm. Each answer here is `ok` for verifyBuyLinks, so only the second reading, the
 * GFM tree, can fail it: the test fails if that reading is removed.
 */
import { MAX_PARSED_CHARS, verifyBuyLinks } from '@catalogkit/links';
import { describe, expect, it } from 'vitest';
import { assertBuyLinksVerified } from '../src/index.js';

const BUY = 'https://go.example/r/1?u=https%3A%2F%2Fshop.example%2Fp%3Fa%3D1&sig=a1b2';
const EVIL = 'https://evil.example/phish';
const toolResults = [
  { toolName: 'search_catalog', output: { products: [{ id: 'p1', variants: [{ url: BUY }] }] } },
];
const DISAGREE =
  'GFM renderers (remark-gfm: react-markdown, Streamdown) read this answer differently';

const PAYLOADS: Array<[string, string, string]> = [
  [
    'L1 a footnote’s indented continuation (a link in GFM)',
    `Buy: ${BUY} [^1]\n\n[^1]: A note\n\n    [Buy now](${EVIL})`,
    `"${EVIL}" is not a buy link the catalog gave`,
  ],
  [
    'L1 a footnote’s indented continuation (raw HTML in GFM)',
    `Buy: ${BUY} [^1]\n\n[^1]: A note\n\n    <img src=x onerror="document.title='pwned'">`,
    'raw HTML "<img src=x onerror=',
  ],
  [
    'L2 `[^x]:` read as a definition by markdown-it, a footnote and a paragraph by GFM',
    `Buy: ${BUY}\n\n[^x]:\n${BUY}\n"\n[Buy now](${EVIL})\n<img src=x onerror=document.title&#61;&#39;pwned&#39;>\n"`,
    `"${EVIL}" is not a buy link the catalog gave`,
  ],
  [
    'L2 an e-mail address after `[^1]:`',
    `Buy: ${BUY}\n\n[^1]:\n evil@evil.example`,
    '"mailto:evil@evil.example" is not a buy link the catalog gave',
  ],
  [
    'L3 an indented line after a definition (lazy continuation in GFM)',
    `Buy: ${BUY}\n\n[a]: /x\n    [Buy now](${EVIL})`,
    '"/x" is not a buy link the catalog gave',
  ],
  [
    'L4 a definition above `| - |` (a table header in GFM)',
    `[a]: ${EVIL}\n| - |\n\nBuy: ${BUY}`,
    `"${EVIL}" is not a buy link the catalog gave`,
  ],
  [
    'L4 an autolink javascript: as a table header',
    `[a]: <javascript:alert(1)>\n| - |\n\nBuy: ${BUY}`,
    '"javascript:alert(1)" is not a buy link the catalog gave',
  ],
  [
    'L7 NBSP in a reference label (two labels in GFM)',
    `[Buy][deal offer]\n\n[deal\u00a0offer]: ${BUY}\n[deal offer]: ${EVIL}`,
    `"${EVIL}" is not a buy link the catalog gave`,
  ],
  [
    'L7 an ideographic space trimmed by markdown-it only',
    `[Buy][deal]\n\n[deal\u3000]: ${BUY}\n[deal]: ${EVIL}`,
    `"${EVIL}" is not a buy link the catalog gave`,
  ],
];

describe('the link check reads the answer as GFM renderers do too (fails closed)', () => {
  it.each(PAYLOADS)(
    '%s: verify is ok, the check fails naming the disagreement',
    (_, answer, says) => {
      expect(verifyBuyLinks(answer, toolResults).ok).toBe(true);
      let message = '';
      try {
        assertBuyLinksVerified(answer, toolResults);
      } catch (error) {
        message = String(error);
      }
      expect(message).toContain(DISAGREE);
      expect(message).toContain(says);
    },
  );

  it('honest answers pass: literal, autolink, inline, reference, table, footnote', () => {
    const answers = [
      `Get it: ${BUY}.`,
      `Get it at <${BUY}> or [here](${BUY}).`,
      `[Buy the shoe][shoe]\n\n[shoe]: ${BUY}`,
      `| Item | Link |\n| - | - |\n| Shoe | [Buy](${BUY}) |`,
      // The footnote call and back-reference are the renderer's own links within the page.
      `Buy: ${BUY} [^1]\n\n[^1]: Prices change daily.`,
    ];
    for (const answer of answers) assertBuyLinksVerified(answer, toolResults, { atLeast: 1 });
  });

  it('allowedLinks apply to the GFM reading as to verify', () => {
    const answer = `Buy: ${BUY} [^1]\n\n[^1]: See our help\n\n    [help](https://help.shop.example/a)`;
    expect(() => assertBuyLinksVerified(answer, toolResults)).toThrow(DISAGREE);
    assertBuyLinksVerified(answer, toolResults, { allowedLinks: ['https://help.shop.example'] });
  });

  it('a footnote holding an image fails: an image loads with no click', () => {
    const answer = `Buy: ${BUY} [^1]\n\n[^1]: A note\n\n    ![x](${BUY})`;
    expect(() => assertBuyLinksVerified(answer, toolResults)).toThrow(
      `${DISAGREE} from the check (markdown-it, as renderAnswerHtml renders it): the image`,
    );
  });

  it('an answer past MAX_PARSED_CHARS is reported too long, and not parsed again', () => {
    const answer = `${'[a\n| - |\n'.repeat(MAX_PARSED_CHARS / 8)}`;
    expect(answer.length).toBeGreaterThan(MAX_PARSED_CHARS);
    const started = performance.now();
    expect(() => assertBuyLinksVerified(answer, toolResults)).toThrow(
      /the answer is too long to check its links$/,
    );
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
