import { boundedEditDistance } from './edit-distance.js';

/** How a written URL was matched to the true buy link it most likely meant. */
export type BuyLinkMatch =
  /** Equal once case and percent-encoding are ignored (`%2F` decoded, letters changed). */
  | 'normalized'
  /** The start of exactly one buy link (the query, signature or tail was cut). */
  | 'truncated'
  /** One buy link followed by extra characters. */
  | 'extended'
  /** A few characters dropped, repeated or changed (edit distance, clearly nearest). */
  | 'edited';

/** The verdict on a URL that is not byte-identical to a buy link. */
export type Nearest =
  | { kind: 'match'; link: string; match: BuyLinkMatch; distance?: number }
  /** It looks like a buy link, but no single one is clearly the one meant. */
  | { kind: 'ambiguous'; candidates: string[] }
  /** It resembles no buy link: some other URL. */
  | { kind: 'unrelated' };

/** Decodes every valid `%XX` sequence (repeatedly, for `%252F`), leaving malformed ones. */
function decodeAll(text: string): string {
  let current = text;
  for (let round = 0; round < 3; round++) {
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
function normalize(url: string): string {
  return decodeAll(url.replace(/&amp;/gi, '&'))
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/\+/g, ' ');
}

function hostOf(url: string): string | undefined {
  return /^(?:https?:\/\/)?([^/?#]+)/i.exec(url)?.[1]?.toLowerCase();
}

/** True when the URL has something after its host besides a bare `/`. */
function hasPath(url: string): boolean {
  const rest = url.replace(/^(?:https?:\/\/)?[^/?#]+/i, '');
  return rest.length > 1;
}

function single(links: string[], match: BuyLinkMatch): Nearest | undefined {
  const distinct = [...new Set(links)];
  if (distinct.length === 1) return { kind: 'match', link: distinct[0]!, match };
  if (distinct.length > 1) return { kind: 'ambiguous', candidates: distinct };
  return undefined;
}

/** Buy links that the written URL starts or ends like, for cut or padded copies. */
function byPrefix(url: string, links: string[]): Nearest | undefined {
  const written = normalize(url);
  if (!hasPath(url)) return undefined;
  const cut = links.filter((link) => {
    const whole = normalize(link);
    return whole.startsWith(written) && whole !== written;
  });
  const cutMatch = single(cut, 'truncated');
  if (cutMatch) return cutMatch;
  // The longest buy link the URL starts with, when a URL carries more than the link.
  const padded = links
    .filter((link) => written.startsWith(normalize(link)))
    .sort((a, b) => b.length - a.length);
  return padded[0] ? { kind: 'match', link: padded[0], match: 'extended' } : undefined;
}

/** Edits allowed for a link: about one character in ten. */
function editBudget(link: string): number {
  return Math.max(4, Math.ceil(link.length / 10));
}

/**
 * The nearest buy link by edit distance, when it is clearly nearest: within the budget, and
 * the second nearest is at least twice as far and three edits further.
 */
function byEdits(url: string, links: string[]): Nearest | undefined {
  const scored = links
    .map((link) => ({ link, distance: boundedEditDistance(url, link, editBudget(link)) }))
    .filter(({ link, distance }) => distance <= editBudget(link))
    .sort((a, b) => a.distance - b.distance);
  const [best, second] = scored;
  if (!best) return undefined;
  const clear = !second || second.distance >= Math.max(2 * best.distance, best.distance + 3);
  return clear
    ? { kind: 'match', link: best.link, match: 'edited', distance: best.distance }
    : { kind: 'ambiguous', candidates: scored.map(({ link }) => link) };
}

/**
 * Which true buy link a written URL most likely meant. "Clearly" means, in order: the only
 * link equal once case and percent-encoding are ignored; the only link it is a cut copy of
 * (it must go beyond the host, so a retailer's home page is not a cut buy link); the link it
 * starts with; or the nearest link by edit distance within one edit in ten, with the second
 * nearest at least twice as far and three edits further. A URL on a buy link's host that
 * meets none of these is ambiguous; any other URL is unrelated.
 */
export function nearestBuyLink(url: string, links: string[]): Nearest {
  const written = normalize(url);
  const same = single(
    links.filter((link) => normalize(link) === written),
    'normalized',
  );
  const found = same ?? byPrefix(url, links) ?? byEdits(url, links);
  if (found) return found;
  const host = hostOf(url);
  const sameHost = links.filter((link) => hostOf(link) === host);
  return sameHost.length > 0 && hasPath(url)
    ? { kind: 'ambiguous', candidates: [] }
    : { kind: 'unrelated' };
}
