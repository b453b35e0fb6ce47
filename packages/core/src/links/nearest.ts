import { boundedEditDistance } from './edit-distance.js';
import { webHostOf } from './href.js';
import { type BuyLinkIndex, normalizeLink, type WorkBudget } from './link-index.js';

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
  | { kind: 'unrelated' }
  /** The work budget ran out before it could be compared: report it, never trust it. */
  | { kind: 'unchecked' };

const UNCHECKED: Nearest = { kind: 'unchecked' };

/** True when the URL has something after its host besides a bare `/`. */
function hasPath(url: string): boolean {
  const rest = url.replace(/^(?:https?:\/\/)?[^/?#]+/i, '');
  return rest.length > 1;
}

function single(links: readonly string[], match: BuyLinkMatch): Nearest | undefined {
  const distinct = [...new Set(links)];
  if (distinct.length === 1) return { kind: 'match', link: distinct[0]!, match };
  if (distinct.length > 1) return { kind: 'ambiguous', candidates: distinct };
  return undefined;
}

/** The first index of a sorted list whose entry is not below `key`. */
function lowerBound(sorted: readonly string[], key: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < key) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Buy links the written form is a cut copy of: one range of the sorted forms. */
function cutCopies(written: string, index: BuyLinkIndex, budget: WorkBudget): string[] | undefined {
  const sorted = index.sortedNormalized;
  const links: string[] = [];
  for (let i = lowerBound(sorted, written); i < sorted.length; i++) {
    if (!budget.spend(written.length + 1)) return undefined;
    const form = sorted[i]!;
    if (!form.startsWith(written)) break;
    if (form !== written) links.push(...index.byNormalized.get(form)!);
    // Two distinct links already make it ambiguous; more would only cost time.
    if (new Set(links).size > 1) break;
  }
  return links.sort((a, b) => index.position.get(a)! - index.position.get(b)!);
}

/** The longest buy link the written form starts with, for padded copies. */
function paddedCopy(written: string, index: BuyLinkIndex, budget: WorkBudget): Nearest | undefined {
  for (const length of index.normalizedLengths) {
    if (length >= written.length) continue;
    if (!budget.spend(length)) return UNCHECKED;
    const links = index.byNormalized.get(written.slice(0, length));
    if (!links) continue;
    const longest = [...links].sort((a, b) => b.length - a.length)[0]!;
    return { kind: 'match', link: longest, match: 'extended' };
  }
  return undefined;
}

/** Buy links that the written URL starts or ends like, for cut or padded copies. */
function byPrefix(url: string, written: string, index: BuyLinkIndex, budget: WorkBudget) {
  if (!hasPath(url)) return undefined;
  const cut = cutCopies(written, index, budget);
  if (cut === undefined) return UNCHECKED;
  return single(cut, 'truncated') ?? paddedCopy(written, index, budget);
}

/** Edits allowed for a link: about one character in ten. */
function editBudget(link: string): number {
  return Math.max(4, Math.ceil(link.length / 10));
}

/**
 * The nearest buy link by edit distance, when it is clearly nearest: within the budget, and
 * the second nearest is at least twice as far and three edits further. Each comparison is
 * paid for from the work budget before it runs.
 */
function byEdits(url: string, index: BuyLinkIndex, budget: WorkBudget): Nearest | undefined {
  const scored: Array<{ link: string; distance: number }> = [];
  if (!budget.spend(index.links.length)) return UNCHECKED;
  for (const link of index.links) {
    const max = editBudget(link);
    if (Math.abs(url.length - link.length) > max) continue;
    // The real cost: the band of every row, and the two rows allocated.
    if (!budget.spend(url.length * (2 * max + 3) + 2 * link.length)) return UNCHECKED;
    const distance = boundedEditDistance(url, link, max);
    if (distance <= max) scored.push({ link, distance });
  }
  scored.sort((a, b) => a.distance - b.distance);
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
 * meets none of these is ambiguous; any other URL is unrelated. Work is drawn from
 * `budget`; when it runs out the answer is `unchecked`.
 */
export function nearestBuyLink(url: string, index: BuyLinkIndex, budget: WorkBudget): Nearest {
  if (!budget.spend(url.length * 4)) return UNCHECKED;
  const written = normalizeLink(url);
  const same = single(index.byNormalized.get(written) ?? [], 'normalized');
  const found = same ?? byPrefix(url, written, index, budget) ?? byEdits(url, index, budget);
  if (found) return found;
  const host = webHostOf(url);
  return host !== undefined && index.hosts.has(host) && hasPath(url)
    ? { kind: 'ambiguous', candidates: [] }
    : { kind: 'unrelated' };
}
