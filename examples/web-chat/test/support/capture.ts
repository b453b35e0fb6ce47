import type { Page, Request } from 'playwright-core';

/** One request the page made, as Chromium sent it. */
export interface CapturedRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
  /** When the test process saw it leave (epoch ms). */
  at: number;
}

/** One response the page received, with its body when it had one. */
export interface CapturedResponse {
  url: string;
  method: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A place the page could expose a secret, and what it held. */
export interface Exposure {
  where: string;
  text: string;
}

/**
 * Everything a page does that could carry a secret: its requests (headers and bodies), the
 * responses it receives (headers and bodies), its console and its errors, including
 * unhandled promise rejections, which an init script reports to the console.
 */
export class Capture {
  readonly requests: CapturedRequest[] = [];
  readonly responses: CapturedResponse[] = [];
  readonly console: string[] = [];
  readonly pageErrors: string[] = [];
  readonly #pending: Promise<unknown>[] = [];
  /** The bodies of the chat answers fulfilled below, by request: the page received exactly these. */
  readonly #fulfilled = new Map<Request, string>();

  async attach(page: Page): Promise<void> {
    await page.addInitScript(() => {
      window.addEventListener('unhandledrejection', (event) => {
        console.error(`[unhandledrejection] ${String(event.reason)}`);
      });
    });
    // Chromium may drop the body of a streamed answer before DevTools reads it ("No data
    // found for resource"), more often under load: the chat stream is fetched here and handed
    // to the page whole, so the body recorded below is always the one the page received.
    await page.route('**/api/chat', async (route) => {
      const response = await route.fetch().catch(() => undefined);
      // A server that is gone stays gone for the page: the same network failure it would see.
      if (response === undefined) return route.abort('connectionrefused');
      const body = await response.body();
      this.#fulfilled.set(route.request(), body.toString('utf8'));
      await route.fulfill({ response, body });
    });
    page.on('console', (message) => this.console.push(`${message.type()}: ${message.text()}`));
    page.on('pageerror', (error) => this.pageErrors.push(String(error)));
    page.on('request', (request) => {
      const at = Date.now();
      this.#track(
        request.allHeaders().then((headers) => {
          this.requests.push({
            url: request.url(),
            method: request.method(),
            headers,
            body: request.postData() ?? '',
            at,
          });
        }),
      );
    });
    page.on('response', (response) => {
      this.#track(
        Promise.all([
          response.allHeaders(),
          // A fulfilled chat answer is recorded as handed to the page: under load Chromium may
          // fail to give its body back through DevTools. Preflights and redirects have none.
          this.#fulfilled.get(response.request()) ?? response.text().catch(() => ''),
        ]).then(([headers, body]) => {
          this.responses.push({
            url: response.url(),
            method: response.request().method(),
            status: response.status(),
            headers,
            body,
          });
        }),
      );
    });
  }

  /** Waits until every request and response seen so far has been recorded. */
  async settle(): Promise<void> {
    let count = -1;
    while (count !== this.#pending.length) {
      count = this.#pending.length;
      await Promise.allSettled(this.#pending);
    }
  }

  /** Requests whose URL path ends with `suffix` (method `POST` unless given). */
  requestsTo(suffix: RegExp, method = 'POST'): CapturedRequest[] {
    return this.requests.filter(
      (request) => request.method === method && suffix.test(new URL(request.url).pathname),
    );
  }

  responsesFrom(suffix: RegExp, method = 'POST'): CapturedResponse[] {
    return this.responses.filter(
      (response) => response.method === method && suffix.test(new URL(response.url).pathname),
    );
  }

  /** Every captured text, labelled by where it came from. */
  exposures(): Exposure[] {
    return [
      ...this.requests.map((request) => ({
        where: `request ${request.method} ${request.url}`,
        text: `${request.url}\n${JSON.stringify(request.headers)}\n${request.body}`,
      })),
      ...this.responses.map((response) => ({
        where: `response ${response.status} ${response.url}`,
        text: `${JSON.stringify(response.headers)}\n${response.body}`,
      })),
      ...this.console.map((line, index) => ({ where: `console line ${index + 1}`, text: line })),
      ...this.pageErrors.map((line, index) => ({ where: `page error ${index + 1}`, text: line })),
    ];
  }

  /** Unhandled rejections and uncaught errors the page reported. */
  unhandled(): string[] {
    return [
      ...this.pageErrors,
      ...this.console.filter((line) => line.includes('[unhandledrejection]')),
    ];
  }

  #track(work: Promise<unknown>): void {
    // A page closing mid-request makes these reject; what was recorded stays.
    this.#pending.push(work.catch(() => undefined));
  }
}

/** What the page keeps: cookies, Web Storage, IndexedDB and Cache Storage names. */
export async function storageExposures(page: Page): Promise<Exposure[]> {
  const stored = await page.evaluate(async () => {
    const dump = (storage: Storage) =>
      Object.fromEntries(
        Array.from({ length: storage.length }, (_, index) => {
          const key = storage.key(index) ?? '';
          return [key, storage.getItem(key)];
        }),
      );
    const databases = await indexedDB.databases();
    const cacheNames = 'caches' in globalThis ? await caches.keys() : [];
    return {
      localStorage: dump(localStorage),
      sessionStorage: dump(sessionStorage),
      documentCookie: document.cookie,
      indexedDB: databases.map((database) => database.name ?? ''),
      caches: cacheNames,
    };
  });
  const cookies = await page.context().cookies();
  return [
    { where: 'page storage', text: JSON.stringify(stored) },
    { where: 'cookies', text: JSON.stringify(cookies) },
  ];
}
