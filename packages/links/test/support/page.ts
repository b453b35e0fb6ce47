import { type Browser, chromium, type Page } from 'playwright-core';
import { BUY, BUY_2 } from './fixtures.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ORIGIN = 'http://answers.test';
const TITLE = 'answer';
const DOCUMENT_URL = `${ORIGIN}/answer`;
const BUY_LINKS = [BUY, BUY_2];

export function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}

/** What a rendered answer did in the browser: every request past the page, dialogs, the title. */
export interface Outcome {
  requests: string[];
  dialogs: string[];
  title: string;
  url: string;
  /** Elements that are clickable or load something, as `tag attr=value`, other than buy links. */
  unsafe: string[];
  /** `a` elements found, and what a click on each opened. */
  anchors: number;
  clicked: string[];
}

/** Elements Markdown makes; anything else in the DOM is a finding. */
const ELEMENTS = new Set(
  'a p br hr em strong del s code pre kbd blockquote ul ol li h1 h2 h3 h4 h5 h6 table thead tbody tr th td sup sub input'.split(
    ' ',
  ),
);

/** In the page: every element and attribute outside the Markdown allow-list. */
function findUnsafe(args: { elements: string[]; buyLinks: string[] }): string[] {
  const allowed = new Set(args.elements);
  const found: string[] = [];
  for (const element of document.body.querySelectorAll('*')) {
    const tag = element.localName;
    if (!allowed.has(tag) || element.namespaceURI !== 'http://www.w3.org/1999/xhtml') {
      found.push(`<${tag}>`);
    }
    for (const { name, value } of element.attributes) {
      if (tag === 'a' && name === 'href' && args.buyLinks.includes(value)) continue;
      if (tag === 'a' && name === 'rel' && value === 'noopener noreferrer sponsored') continue;
      if (tag === 'code' && name === 'class' && /^language-[\w-]*$/.test(value)) continue;
      if (name === 'style' && /^text-align:\s*(left|right|center);?$/.test(value)) continue;
      if ((tag === 'th' || tag === 'td') && name === 'align') continue;
      if (tag === 'ol' && name === 'start') continue;
      if (tag === 'input' && /^(type|checked|disabled)$/.test(name) && value !== 'submit') continue;
      found.push(`<${tag} ${name}=${JSON.stringify(value)}>`);
    }
  }
  return found;
}

/** A page of its own that serves `body` once and records every other request. */
async function openPage(
  browser: Browser,
  body: string,
  outcome: Outcome,
  clicking = false,
): Promise<Page> {
  const page = await browser.newPage();
  let served = false;
  await page.route('**/*', async (route) => {
    const request = route.request();
    if (request.url() === DOCUMENT_URL && !served) {
      served = true;
      return route.fulfill({ status: 200, contentType: 'text/html', body });
    }
    // A click's navigation is the click loop's to record; any other request is a finding.
    if (!(clicking && request.isNavigationRequest())) outcome.requests.push(request.url());
    return route.abort();
  });
  page.on('dialog', (dialog) => {
    outcome.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto(DOCUMENT_URL);
  // Meta refresh, SVG animations and load handlers fire within this.
  await page.waitForTimeout(150);
  return page;
}

/**
 * Shows `html` as the body of a page (served by a route: every other request is recorded
 * and refused), waits for timers and animations, then checks the DOM against the allow-list.
 * With `click`, each link is clicked on a page of its own: a click may only open a buy link,
 * and one that opens nothing must leave the title as it was.
 */
export async function show(browser: Browser, html: string, click: boolean): Promise<Outcome> {
  const outcome: Outcome = {
    requests: [],
    dialogs: [],
    title: '',
    url: '',
    unsafe: [],
    anchors: 0,
    clicked: [],
  };
  const body = `<!doctype html><html><head><meta charset="utf-8"><title>${TITLE}</title></head><body>${html}</body></html>`;
  const page = await openPage(browser, body, outcome);
  outcome.unsafe = await page.evaluate(findUnsafe, {
    elements: [...ELEMENTS],
    buyLinks: BUY_LINKS,
  });
  outcome.anchors = await page.locator('a').count();
  outcome.title = await page.title();
  outcome.url = page.url();
  await page.close();
  for (let i = 0; click && i < outcome.anchors; i++) {
    const clickPage = await openPage(browser, body, outcome, true);
    const opened = clickPage
      .waitForEvent('request', { predicate: (r) => r.isNavigationRequest(), timeout: 3000 })
      .catch(() => undefined);
    await clickPage.locator('a').nth(i).click({ timeout: 2000, noWaitAfter: true });
    const request = await opened;
    if (request?.isNavigationRequest()) outcome.clicked.push(request.url());
    // A click that opened nothing must not have run anything either.
    else outcome.title = await clickPage.title();
    await clickPage.close();
  }
  return outcome;
}

/** Hrefs of the links in `html` once Chromium has parsed it. */
export async function hrefsIn(browser: Browser, html: string): Promise<Array<string | null>> {
  const outcome: Outcome = {
    requests: [],
    dialogs: [],
    title: '',
    url: '',
    unsafe: [],
    anchors: 0,
    clicked: [],
  };
  const page = await openPage(browser, `<!doctype html><body>${html}</body>`, outcome);
  const hrefs = await page.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  await page.close();
  return hrefs;
}

export { BUY_LINKS, DOCUMENT_URL, TITLE };
