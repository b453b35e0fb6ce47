import { buyLinkReference } from '@catalogkit/core/tools';
import { MAX_PARSED_CHARS } from './parse.js';
import { type BuyLinkSources, type BuyLinkTrustOptions, collectBuyLinks } from './sources.js';

/**
 * A reference as models write it: `[[buy:ID]]`, forgiving spaces, case and lost brackets
 * (`[buy:ID]`, `[[buy:ID]`), or a bare `buy:ID` (as in `[Buy](buy:ID)`); the id is group 1 or 2.
 * Brackets go with the reference, so none is left stray. Group 3 is a reference damaged past
 * recognition (`[[bu:123456789]]`), reported rather than shown as text. Every part is bounded
 * (at most {@link MAX_REFERENCE_LENGTH} characters), so a stream knows when one is complete.
 */
const REFERENCE_PATTERN =
  /\[\[?\s{0,4}buy\s{0,4}:\s{0,4}(\d{1,20})(?!\d)(?:\s{0,4}\]){0,2}|(?<![\w:/])buy:(\d{1,20})(?!\d)|\[\[([^[\]\n]{0,24}?\d{6}[^[\]\n]{0,24}?)\]\]/gi;

/** The longest text {@link REFERENCE_PATTERN} matches (its third alternative). */
const MAX_REFERENCE_LENGTH = 58;

/** A text that may start a reference (a superset: holding back more only delays it). */
const REFERENCE_PREFIX =
  /(?:\[\[?[^[\]]{0,56}(?:\]\s{0,4})?|(?<![\w:/])b(?:u(?:y(?::\d{0,20})?)?)?)$/i;

/** Where a possibly unfinished reference starts at the end of a text, or `text.length`. */
export function unfinishedReferenceStart(text: string): number {
  const match = REFERENCE_PREFIX.exec(text.slice(-MAX_REFERENCE_LENGTH));
  return match ? text.length - match[0].length : text.length;
}

/** A reference in an answer that names no single buy link of the tool outputs. */
export interface UnresolvedReference {
  /** The reference as written, e.g. `[[buy:123456780]]`. */
  reference: string;
  /** Offset of its first character in the text given. */
  start: number;
  end: number;
  /** `unknown`: no buy link has it; `ambiguous`: two do; `malformed`: no id can be read. */
  reason: 'unknown' | 'ambiguous' | 'malformed';
}

/** What {@link resolveBuyLinks} did to an answer. */
export interface BuyLinkResolution {
  /** The answer with every resolvable reference replaced by its buy link, byte for byte. */
  text: string;
  /** The references replaced, with the link each became. */
  resolved: Array<{ reference: string; link: string }>;
  /** References left as written: reported, never dropped or guessed. */
  unresolved: UnresolvedReference[];
}

/** Options of {@link resolveBuyLinks}. */
export interface ResolveBuyLinksOptions extends BuyLinkTrustOptions {
  /** What replaces an unresolved reference (default: itself); e.g. `() => '(link unavailable)'`. */
  unresolved?: (issue: UnresolvedReference) => string;
}

/** The buy links of trusted catalog results by reference id, gathered as results arrive. */
export class BuyLinkReferences {
  readonly #byId = new Map<string, string[]>();
  readonly #links = new Set<string>();
  readonly #trust: BuyLinkTrustOptions;

  /**
   * @param toolResults tool results labelled with their tool's name ({@link BuyLinkSources}).
   * @param options which tools are trusted (`catalogToolNames`, default `search_catalog`).
   */
  constructor(toolResults: BuyLinkSources = [], options: BuyLinkTrustOptions = {}) {
    this.#trust = { catalogToolNames: options.catalogToolNames };
    this.add(toolResults);
  }

  /** Adds the buy links of more tool results (a later step or turn); others are ignored. */
  add(toolResults: BuyLinkSources): void {
    for (const link of collectBuyLinks(toolResults, this.#trust)) {
      this.#links.add(link);
      const id = /\d+/.exec(buyLinkReference(link))![0];
      const links = this.#byId.get(id) ?? [];
      if (!links.includes(link)) links.push(link);
      this.#byId.set(id, links);
    }
  }

  /** Every buy link added, in the order they first appeared. */
  links(): readonly string[] {
    return [...this.#links];
  }

  /** True when `url` is byte for byte one of the buy links. */
  has(url: string): boolean {
    return this.#links.has(url);
  }

  /** The links a reference id names: one when it resolves. */
  linksOf(id: string): readonly string[] {
    return this.#byId.get(id) ?? [];
  }
}

/** The references of some tool results, reused when they already are. */
export function referencesOf(
  toolResults: BuyLinkSources | BuyLinkReferences,
  options: BuyLinkTrustOptions = {},
): BuyLinkReferences {
  return toolResults instanceof BuyLinkReferences
    ? toolResults
    : new BuyLinkReferences(toolResults, options);
}

/**
 * Replaces references with the buy links they name, up to {@link MAX_PARSED_CHARS} (the limit
 * of `verifyBuyLinks`, which calls longer answers `too-long`): one bounded scan whatever the
 * length. In a stream, `offset` is how much came before and `before` its last character.
 */
export function resolveWith(
  text: string,
  references: Pick<BuyLinkReferences, 'linksOf'>,
  options: ResolveBuyLinksOptions = {},
  offset = 0,
  before = '',
): BuyLinkResolution {
  const resolution: BuyLinkResolution = { text: '', resolved: [], unresolved: [] };
  const readable = Math.max(0, MAX_PARSED_CHARS - offset);
  // Enough past the limit to read any reference that starts before it exactly as a whole text would.
  const source = before + text.slice(0, readable + MAX_REFERENCE_LENGTH + 1);
  const pattern = new RegExp(REFERENCE_PATTERN);
  pattern.lastIndex = before.length;
  let copied = 0;
  for (let match = pattern.exec(source); match; match = pattern.exec(source)) {
    const [reference, full, bare, malformed] = match;
    const start = match.index - before.length;
    if (start + reference.length > readable) break;
    resolution.text += text.slice(copied, start);
    copied = start + reference.length;
    const id = full ?? bare;
    const links = id === undefined ? [] : references.linksOf(id);
    if (links.length === 1) {
      resolution.resolved.push({ reference, link: links[0]! });
      resolution.text += links[0]!;
      continue;
    }
    const issue: UnresolvedReference = {
      reference,
      start: offset + start,
      end: offset + copied,
      reason: malformed !== undefined ? 'malformed' : links.length ? 'ambiguous' : 'unknown',
    };
    resolution.unresolved.push(issue);
    resolution.text += options.unresolved ? options.unresolved(issue) : reference;
  }
  resolution.text += text.slice(copied);
  return resolution;
}

/**
 * Turns the references a model wrote (`[[buy:123456780]]`) back into the exact buy links of the
 * trusted catalog results ({@link BuyLinkSources}). A reference naming no link (mistyped,
 * invented, from another tool or results not given) or two is left as written and reported in
 * `unresolved`, never dropped or guessed. References past {@link MAX_PARSED_CHARS} stay as written.
 *
 * @example
 * const { text, unresolved } = resolveBuyLinks(answer, result.steps.flatMap((s) => s.toolResults));
 */
export function resolveBuyLinks(
  text: string,
  toolResults: BuyLinkSources | BuyLinkReferences,
  options: ResolveBuyLinksOptions = {},
): BuyLinkResolution {
  return resolveWith(text, referencesOf(toolResults, options), options);
}
