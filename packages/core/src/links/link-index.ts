import {
  type BuyLinkSources,
  type BuyLinkTrustOptions,
  catalogResultOf,
  collectBuyLinks,
  collectCatalogUrls,
  trustedToolNames,
} from './buy-links.js';
import { trimmedEnd } from './find-urls.js';
import { webHostOf } from './href.js';

/** Decodes every valid `%XX` sequence (three rounds, for `%252F`), leaving malformed ones. */
function decodeAll(text: string): string {
  let current = text;
  for (let round = 0; round < 3 && current.includes('%'); round++) {
    const next = current.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
    if (next === current) break;
    current = next;
  }
  return current;
}

/** The form two URLs share when they differ only by case, encoding (`&amp;` too) or scheme. */
export function normalizeLink(url: string): string {
  return decodeAll(url.replace(/&amp;/gi, '&'))
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/\+/g, ' ');
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) {
    if (!list.includes(value)) list.push(value);
  } else map.set(key, [value]);
}

/**
 * The true links of some tool results, with everything a check looks up built once, so
 * checking a URL never walks every link character by character.
 */
export class BuyLinkIndex {
  /** The buy links, in the order they first appear. */
  readonly links: readonly string[];
  readonly set: ReadonlySet<string>;
  /** Where each buy link first appears, to report candidates in the order of the results. */
  readonly position = new Map<string, number>();
  /** Other web URLs of the trusted results (sellers' pages, images). */
  readonly catalogUrls: ReadonlySet<string>;
  /** Hosts of the buy links. */
  readonly hosts: ReadonlySet<string>;
  /** Buy links by the form they take once trailing punctuation is trimmed (`…/item.`). */
  readonly byTrimmed = new Map<string, string[]>();
  /** Buy links by their {@link normalizeLink} form. */
  readonly byNormalized = new Map<string, string[]>();
  /** The normalized forms, sorted: the links a cut copy starts are one range of it. */
  readonly sortedNormalized: readonly string[];
  /** Lengths of the normalized forms, longest first (a padded copy starts with one). */
  readonly normalizedLengths: readonly number[];

  constructor(links: readonly string[], catalogUrls: ReadonlySet<string> = new Set()) {
    this.links = links;
    this.set = new Set(links);
    this.catalogUrls = catalogUrls;
    const hosts = new Set<string>();
    for (const link of links) {
      if (!this.position.has(link)) this.position.set(link, this.position.size);
      const host = webHostOf(link);
      if (host !== undefined) hosts.add(host);
      push(this.byTrimmed, link.slice(0, trimmedEnd(link, 0, link.length)), link);
      push(this.byNormalized, normalizeLink(link), link);
    }
    this.hosts = hosts;
    this.sortedNormalized = [...this.byNormalized.keys()].sort();
    this.normalizedLengths = [...new Set(this.sortedNormalized.map((n) => n.length))].sort(
      (a, b) => b - a,
    );
  }

  /** The index of the trusted catalog results among some sources. */
  static of(sources: BuyLinkSources, options: BuyLinkTrustOptions = {}): BuyLinkIndex {
    const list = [...sources];
    const trusted = trustedToolNames(options);
    const urls = new Set<string>();
    for (const source of list) collectCatalogUrls(catalogResultOf(source, trusted), urls);
    const links = collectBuyLinks(list, options);
    for (const link of links) urls.delete(link);
    return new BuyLinkIndex(links, urls);
  }
}

/**
 * A count of the work a check may still do, so that comparing URLs with links stays linear
 * in the text whatever the text holds. Past it, a URL that is not a true link is reported
 * without looking for the link it meant.
 */
export class WorkBudget {
  #left: number;

  constructor(units: number) {
    this.#left = units;
  }

  /** Spends `units` if there are that many left; false (and nothing spent) otherwise. */
  spend(units: number): boolean {
    if (units > this.#left) return false;
    this.#left -= units;
    return true;
  }

  /** What is left (for tests that count work). */
  get left(): number {
    return this.#left;
  }
}
