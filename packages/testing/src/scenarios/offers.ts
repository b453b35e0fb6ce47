import type { ModelView, ResultSeen } from '../stand-ins/script.js';

/** An offer as the model read it in a `search_catalog` result. */
export interface OfferSeen {
  /** The product's title. */
  title: string;
  /** The product's id (`prod_…`), when printed. */
  productId: string | undefined;
  /** The price as printed, e.g. `$78.99`. */
  price: string | undefined;
  /** The buy link as the model read it: the link itself, or its `[[buy:…]]` reference. */
  link: string;
}

/** The last result the model read from the tool `name`, if any. */
export function lastResult(view: ModelView, name: string): ResultSeen | undefined {
  return resultsOf(view, name).at(-1);
}

/** The results the model read from the tool `name`, in order. */
export function resultsOf(view: ModelView, name: string): ResultSeen[] {
  return view.results.filter((result) => result.name === name);
}

const LINK_CELL = /^(https?:\/\/\S+|\[\[buy:\d+\]\])$/;
const PRICE_CELL = /^[$€£]\s?\d/;

/** Lines longer than this are no offer line (the catalog view's lines are short). */
const MAX_LINE = 4096;

/**
 * The offers of a catalog search as the model read them (the compact view: one line per
 * offer, cells split by ` | `, the buy link or its reference last), in order.
 */
export function offersIn(text: string): OfferSeen[] {
  const offers: OfferSeen[] = [];
  let product = { title: '', productId: undefined as string | undefined };
  for (const line of text.split('\n')) {
    if (line.length > MAX_LINE || !line.includes(' | ')) continue;
    const cells = line.replace(/^- /, '').split(' | ');
    const productId = cells.find((cell) => cell.startsWith('prod_'));
    if (productId && !line.startsWith('- ')) product = { title: cells[0] ?? '', productId };
    const link = cells.at(-1) ?? '';
    if (!LINK_CELL.test(link)) continue;
    offers.push({ ...product, price: cells.find((cell) => PRICE_CELL.test(cell)), link });
  }
  return offers;
}

/** A final answer listing offers with their links, as a model writes one. */
export function answerWithOffers(
  offers: readonly OfferSeen[],
  intro = 'Here are my picks:',
  linkOf: (offer: OfferSeen, index: number) => string = (offer) => offer.link,
): string {
  const lines = offers.map(
    (offer, i) =>
      `${i + 1}. ${offer.title}${offer.price ? `, ${offer.price}` : ''}: ${linkOf(offer, i)}`,
  );
  return [intro, ...lines].join('\n');
}
