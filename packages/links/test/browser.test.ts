import fc from 'fast-check';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyBuyLinks } from '../src/index.js';
import { ATTACKS, GFM_DISAGREEMENTS } from './support/attacks.js';
import { BUY, BUY_2, toolResults } from './support/fixtures.js';
import {
  BUY_LINKS,
  DOCUMENT_URL,
  hrefsIn,
  launch,
  type Outcome,
  openTab,
  show,
  type Tab,
  TITLE,
} from './support/page.js';
import { RENDERERS } from './support/render-both.js';

let browser: Browser;
let tab: Tab;

beforeAll(async () => {
  browser = await launch();
  tab = await openTab(browser);
});

afterAll(async () => {
  await browser?.close();
});

/** Generated answers per property: a few in `pnpm test`, more under `pnpm fuzz`. */
const RUNS = Number(process.env.CATALOGKIT_FUZZ_RUNS ?? 10);

const OPENED = new Set(BUY_LINKS.map((link) => new URL(link).href));

/** Nothing ran, nothing loaded, and every link is a buy link (and opens one). */
function expectSafe(outcome: Outcome): void {
  expect(outcome.unsafe).toEqual([]);
  expect(outcome.requests).toEqual([]);
  expect(outcome.dialogs).toEqual([]);
  expect(outcome.title).toBe(TITLE);
  expect(outcome.url).toBe(DOCUMENT_URL);
  for (const url of outcome.clicked) expect(OPENED).toContain(url);
}

describe.each(Object.entries(RENDERERS))('in Chromium, %s', (_name, render) => {
  it.each(Object.entries({ ...ATTACKS, ...GFM_DISAGREEMENTS }))(
    '%s: only buy links are clickable, no script runs',
    async (_attack, answer) => {
      expectSafe(await show(tab, render(answer), true));
    },
  );

  it('a plain buy link stays clickable and opens the buy link', async () => {
    const outcome = await show(tab, render(`Get it [here](${BUY}) or at <${BUY_2}>.`), true);
    expectSafe(outcome);
    expect(outcome.anchors).toBe(2);
    expect(outcome.clicked).toEqual([new URL(BUY).href, new URL(BUY_2).href]);
  });
});

/** Pieces hostile answers are made of: links, HTML, encodings, Markdown punctuation. */
const PIECE = fc.oneof(
  fc.constantFrom(
    BUY,
    BUY_2,
    'https://evil.example/',
    'https://go.example@evil.example/r/1',
    "javascript:document.title='pwned'",
    'data:text/html,<script>alert(1)</script>',
    '[',
    ']',
    '(',
    ')',
    '<',
    '>',
    '"',
    "'",
    '&#106;',
    '&colon;',
    '&#61;',
    '%6A',
    '\\',
    '\t',
    '\n',
    '\n\n',
    ' ',
    '<svg>',
    '<a href=',
    '<set attributeName="href" to=',
    '<animate attributeName="href" values=',
    '<iframe srcdoc=',
    ' onerror=',
    ' onclick=',
    '<img src=x',
    '<meta http-equiv="refresh" content="0;url=',
    '<form action=',
    '<base href=',
    '<!--',
    '-->',
    '<![CDATA[',
    ']]>',
    '`',
    '*',
    '[Buy](',
    '![x](',
    'www.',
    '@',
    '[1]: ',
    '[Buy][1]',
    '<script>',
    "document.title='pwned'",
    'alert(1)',
  ),
  fc.string({ maxLength: 6 }),
);
const ANSWER = fc.array(PIECE, { maxLength: 40 }).map((pieces) => pieces.join(''));

describe('generated hostile answers', () => {
  it.each(Object.entries(RENDERERS))(
    '%s: safe in Chromium whatever the answer',
    async (_name, render) => {
      await fc.assert(
        fc.asyncProperty(ANSWER, async (answer) => {
          expectSafe(await show(tab, render(answer), false));
        }),
        { numRuns: RUNS },
      );
    },
    240_000,
  );

  it('renderAnswerHtml makes clickable exactly the links verifyBuyLinks verified', async () => {
    await fc.assert(
      fc.asyncProperty(ANSWER, async (answer) => {
        const hrefs = await hrefsIn(tab, RENDERERS.renderAnswerHtml!(answer));
        expect(hrefs).toEqual(verifyBuyLinks(answer, toolResults).verified.map(({ url }) => url));
      }),
      { numRuns: RUNS },
    );
  }, 240_000);
});
