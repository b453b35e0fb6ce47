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

/** What the tab's route handler serves, and records into, for the document loaded now. */
interface Load {
  body: string;
  outcome: Outcome;
  /** A click's navigation is the click loop's to record; any other request is a finding. */
  clicking: boolean;
  /** The document is served once per load: a second request for it (a refresh) is a finding. */
  served: boolean;
}

/**
 * One page for a whole test file, each answer loaded into it afresh (a navigation replaces the
 * document, its scripts, timers and frames). A new page per answer cost Chromium a renderer
 * process each, most of the suite's CPU; the checks per document are the same.
 */
export interface Tab {
  page: Page;
  load: Load;
}

function emptyOutcome(): Outcome {
  return { requests: [], dialogs: [], title: '', url: '', unsafe: [], anchors: 0, clicked: [] };
}

/** A page whose route serves the current load's body and records every other request. */
export async function openTab(browser: Browser): Promise<Tab> {
  const page = await browser.newPage();
  const tab: Tab = {
    page,
    load: { body: '', outcome: emptyOutcome(), clicking: false, served: true },
  };
  await page.route('**/*', async (route) => {
    const { load } = tab;
    const request = route.request();
    if (request.url() === DOCUMENT_URL && !load.served) {
      load.served = true;
      return route.fulfill({ status: 200, contentType: 'text/html', body: load.body });
    }
    if (!(load.clicking && request.isNavigationRequest()))
      load.outcome.requests.push(request.url());
    // A navigation of the page is answered 204: the document stays, and Chromium commits no
    // error page that could cut the tab's next load short. Anything else is refused.
    return request.isNavigationRequest() && request.frame() === tab.page.mainFrame()
      ? route.fulfill({ status: 204 })
      : route.abort();
  });
  page.on('dialog', (dialog) => {
    tab.load.outcome.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return tab;
}

/** Loads `body` into the tab as a new document; what it does goes to `outcome`. */
async function load(tab: Tab, body: string, outcome: Outcome, clicking = false): Promise<Page> {
  tab.load = { body, outcome, clicking, served: false };
  await tab.page.goto(DOCUMENT_URL);
  // Meta refresh, SVG animations and load handlers fire within this.
  await tab.page.waitForTimeout(150);
  return tab.page;
}

/**
 * Shows `html` as the body of a page (served by a route: every other request is recorded
 * and refused), waits for timers and animations, then checks the DOM against the allow-list.
 * With `click`, each link is clicked in a document of its own: a click may only open a buy
 * link, and one that opens nothing must leave the title as it was.
 */
export async function show(tab: Tab, html: string, click: boolean): Promise<Outcome> {
  const outcome = emptyOutcome();
  const body = `<!doctype html><html><head><meta charset="utf-8"><title>${TITLE}</title></head><body>${html}</body></html>`;
  const page = await load(tab, body, outcome);
  outcome.unsafe = await page.evaluate(findUnsafe, {
    elements: [...ELEMENTS],
    buyLinks: BUY_LINKS,
  });
  outcome.anchors = await page.locator('a').count();
  outcome.title = await page.title();
  outcome.url = page.url();
  for (let i = 0; click && i < outcome.anchors; i++) {
    const clickPage = await load(tab, body, outcome, true);
    const opened = clickPage
      .waitForEvent('request', { predicate: (r) => r.isNavigationRequest(), timeout: 15_000 })
      .catch(() => undefined);
    await clickPage.locator('a').nth(i).click({ timeout: 15_000, noWaitAfter: true });
    const request = await opened;
    if (request?.isNavigationRequest()) {
      outcome.clicked.push(request.url());
      // Answered by the route before the next load, so it is never read as that load's request.
      await request.response();
    }
    // A click that opened nothing must not have run anything either.
    else outcome.title = await clickPage.title();
  }
  return outcome;
}

/** Hrefs of the links in `html` once Chromium has parsed it. */
export async function hrefsIn(tab: Tab, html: string): Promise<Array<string | null>> {
  const page = await load(tab, `<!doctype html><body>${html}</body>`, emptyOutcome());
  return page.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
}

export { BUY_LINKS, DOCUMENT_URL, TITLE };
