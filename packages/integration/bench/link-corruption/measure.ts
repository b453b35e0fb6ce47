import { createCatalogToolList, type SearchCatalogOutput } from '@catalogkit/core';
import { formatMinorUnits } from '@catalogkit/core/tools';
import type { RunningEmulator } from '@catalogkit/emulator';
import { type BuyLinkMode, finalizeBuyLinks, verifyBuyLinks } from '@catalogkit/links';
import { MANGLES, type Mangle, seededRandom } from '../../../testing/src/scenarios/mangles.js';
import { TOKEN_TABLE_QUERIES } from '../token-table.js';

/** Web URLs written bare in a text (the view prints them so; the stand-in copies them). */
function urlsIn(text: string): string[] {
  // Trailing punctuation ends a sentence, not the link (as GFM and markdown-it read it).
  return [...text.matchAll(/https?:\/\/[^\s<>()[\]"'`]+/g)].map((match) =>
    match[0].replace(/[?!.,:*_~]+$/, ''),
  );
}

/** One offer as the stand-in model writes about it. */
interface Offer {
  title: string;
  retailer: string;
  price: string;
  link: string;
  /** What the model read for the link: the link itself, or its reference. */
  written: string;
}

/** One search: its output (what the application gets) and the offers the model read. */
interface Search {
  output: SearchCatalogOutput;
  offers: Offer[];
}

/** Outcomes of one mangle over every offer, in one mode. */
export interface CorruptionRow {
  mangle: string;
  /** Corrupted copies written (0 when the mode cannot suffer this damage). */
  trials: number;
  /** Reported by the verifier (inline) or the resolver (reference). */
  caught: number;
  /** The shopper gets the true link, byte for byte (repaired, resolved, or never broken). */
  intact: number;
  /** Of those, copies nothing had to catch: read as the true link as written. */
  intactAsWritten: number;
  /** Left as written and reported (no clear match, or an unresolvable reference). */
  flagged: number;
  /** A true buy link of another offer: the copy named the wrong offer. */
  wrongOffer: number;
  /**
   * No link at all: the copy is plain text to the renderer (GFM links no URL without a scheme
   * or `www.`), so the shopper sees no buy link for that offer, and no wrong one.
   */
  unlinked: number;
  /** A URL that is no buy link reaches the final text unreported. */
  corruptedShown: number;
}

async function search(
  emulator: RunningEmulator,
  query: string,
  buyLinks: BuyLinkMode,
): Promise<Search> {
  const [tool] = createCatalogToolList({
    clientOptions: {
      baseUrl: emulator.baseUrl,
      mcpUrl: emulator.mcpUrl,
      apiKey: emulator.keys.valid,
    },
    include: ['search_catalog'],
    buyLinks,
  });
  if (tool?.originalName !== 'search_catalog') throw new Error('search_catalog missing');
  const output = await tool.execute({ query, limit: 10, cursor: null, placements: ['affiliate'] });
  const view = tool.toModelOutput(output);
  // The stand-in copies what it read, in the order the view printed it.
  const written =
    buyLinks === 'reference'
      ? [...view.matchAll(/\[\[buy:\d+\]\]/g)].map((match) => match[0])
      : urlsIn(view);
  const offers = output.response.products.flatMap((product) =>
    product.variants.map((variant) => ({
      title: product.title,
      retailer: variant.seller?.name ?? 'the retailer',
      price: variant.price ? formatMinorUnits(variant.price) : '',
      link: variant.url ?? '',
    })),
  );
  if (written.length !== offers.length)
    throw new Error(`${query}: ${written.length} links read for ${offers.length} offers`);
  return { output, offers: offers.map((offer, i) => ({ ...offer, written: written[i]! })) };
}

/** The three notations models use for a link, in turn. */
function line(n: number, offer: Offer, written: string): string {
  const about = `${offer.title} at ${offer.retailer} for ${offer.price}`;
  if (n % 3 === 0) return `${n + 1}. ${about}: ${written}`;
  if (n % 3 === 1) return `${n + 1}. [${about}](${written})`;
  return `${n + 1}. ${about} <${written}>`;
}

interface Trial {
  answer: string;
  offer: Offer;
}

/** An answer about three offers in a row, the first one's link or reference mangled. */
function trial(
  offers: Offer[],
  i: number,
  mangle: Mangle,
  mode: BuyLinkMode,
  random: () => number,
): Trial | undefined {
  const picked = [0, 1, 2].map((k) => offers[(i + k) % offers.length]!);
  const [offer, next] = picked as [Offer, Offer, Offer];
  const context = { other: next.written, random };
  const mangled =
    mode === 'inline'
      ? mangle.link(offer.written, context)
      : mangle.reference(offer.written, context);
  if (mangled === undefined) return undefined;
  const answer = picked.map((o, k) => line(k, o, k === 0 ? mangled : o.written)).join('\n');
  return { answer, offer };
}

function score(
  row: CorruptionRow,
  first: string,
  offer: Offer,
  links: Set<string>,
  caught: boolean,
): void {
  const urls = urlsIn(first);
  row.trials++;
  if (caught) row.caught++;
  if (urls.length === 1 && urls[0] === offer.link) {
    row.intact++;
    if (!caught) row.intactAsWritten++;
  } else if (urls.some((url) => url !== offer.link && links.has(url))) row.wrongOffer++;
  else if (caught) row.flagged++;
  else if (urls.length === 0 && !/\bhttps?:/i.test(first)) row.unlinked++;
  else row.corruptedShown++;
}

function measureMangle(searches: Search[], mangle: Mangle, mode: BuyLinkMode): CorruptionRow {
  const row: CorruptionRow = {
    mangle: mangle.name,
    trials: 0,
    caught: 0,
    intact: 0,
    intactAsWritten: 0,
    flagged: 0,
    wrongOffer: 0,
    unlinked: 0,
    corruptedShown: 0,
  };
  const random = seededRandom(13);
  for (const { output, offers } of searches) {
    const links = new Set(offers.map((offer) => offer.link));
    offers.forEach((_, i) => {
      const made = trial(offers, i, mangle, mode, random);
      if (!made) return;
      const final = finalizeBuyLinks(made.answer, [{ toolName: 'search_catalog', output }]);
      const firstLine = (text: string) => text.split('\n')[0]!;
      const caught =
        mode === 'inline'
          ? verifyBuyLinks(firstLine(made.answer), [{ toolName: 'search_catalog', output }]).issues
              .length > 0
          : final.unresolved.some((issue) => issue.start < firstLine(made.answer).length);
      score(row, firstLine(final.text), made.offer, links, caught);
    });
  }
  return row;
}

/**
 * For every query of the token table (token tier, commission asked for) and every mangle, a
 * stand-in model writes an answer about three offers with the first one's link (inline) or
 * reference (reference mode) mangled; the answer then goes through `finalizeBuyLinks`, as
 * an application would. Returns one row per mangle and mode.
 */
export async function measureLinkCorruption(
  emulator: RunningEmulator,
): Promise<Record<BuyLinkMode, CorruptionRow[]>> {
  const rowsOf = async (mode: BuyLinkMode) => {
    const searches: Search[] = [];
    for (const query of TOKEN_TABLE_QUERIES) searches.push(await search(emulator, query, mode));
    return MANGLES.map((mangle) => measureMangle(searches, mangle, mode));
  };
  return { inline: await rowsOf('inline'), reference: await rowsOf('reference') };
}

function sum(
  rows: CorruptionRow[],
  key: keyof Omit<CorruptionRow, 'mangle'>,
  except?: string,
): number {
  return rows.filter((row) => row.mangle !== except).reduce((total, row) => total + row[key], 0);
}

const SWAP = 'two links swapped';

/** Both tables as Markdown, with the totals the README quotes. */
export function linkCorruptionMarkdown(rows: Record<BuyLinkMode, CorruptionRow[]>): string {
  const table = (mode: BuyLinkMode) => [
    `| ${mode} mode: corruption | copies | caught | true link shown | flagged, left as written | other offer's true link | no link (plain text) | corrupted link shown |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows[mode].map((row) =>
      row.trials === 0
        ? `| ${row.mangle} | - | - | - | - | - | - | - |`
        : `| ${row.mangle} | ${row.trials} | ${row.caught} | ${row.intact} | ${row.flagged} | ${row.wrongOffer} | ${row.unlinked} | ${row.corruptedShown} |`,
    ),
  ];
  const inline = rows.inline;
  const reference = rows.reference;
  return [
    ...table('inline'),
    '',
    `Inline, every mangle but the swap (a true link in the wrong place, which no link check can see): ${sum(inline, 'trials', SWAP)} mangled copies; ${sum(inline, 'caught', SWAP)} caught by verifyBuyLinks and ${sum(inline, 'intactAsWritten', SWAP)} read as the true link as written (punctuation after the link); ${sum(inline, 'intact', SWAP)} shown as the true link after finalizeBuyLinks, ${sum(inline, 'flagged', SWAP)} flagged and left as written, ${sum(inline, 'unlinked', SWAP)} plain text with no link (a URL without its scheme), ${sum(inline, 'corruptedShown', SWAP)} corrupted links shown unreported.`,
    '',
    ...table('reference'),
    '',
    `Reference: ${sum(reference, 'trials')} mangled references, ${sum(reference, 'corruptedShown')} corrupted links in the final text, ${sum(reference, 'flagged')} references reported unresolved (left as written), ${sum(reference, 'wrongOffer')} resolved to another offer's true link (swapped references).`,
  ].join('\n');
}
