import {
  type BuyLinkSources,
  type BuyLinkTrustOptions,
  catalogResultOf,
  collectBuyLinks,
  collectCatalogUrls,
  trustedToolNames,
} from './buy-links.js';
import { BuyLinkIndex } from './link-index.js';
import { buyLinkReference, REFERENCE_PATTERN } from './references.js';

/** A reference in an answer that names no single buy link of the tool outputs. */
export interface UnresolvedReference {
  /** The reference as written, e.g. `[[buy:123456780]]`. */
  reference: string;
  /** Offset of its first character in the text given. */
  start: number;
  end: number;
  /**
   * `unknown`: no buy link has it (a mistyped or invented reference); `ambiguous`: two do;
   * `malformed`: damaged past reading (`[[bu:123456789]]`), so no id can be looked up.
   */
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
  /**
   * What replaces a reference that cannot be resolved. Default: the reference as written,
   * so the gap stays visible; e.g. `() => '(link unavailable)'` for shoppers.
   */
  unresolved?: (issue: UnresolvedReference) => string;
}

/**
 * The buy links of the trusted catalog results among some tool results, by their reference
 * id (the digits), gathered as results arrive (later steps and turns).
 */
export class BuyLinkReferences {
  readonly #byId = new Map<string, string[]>();
  readonly #links = new Set<string>();
  readonly #catalogUrls = new Set<string>();
  readonly #trust: BuyLinkTrustOptions;
  readonly #trusted: ReadonlySet<string>;
  /** Built when first needed after a change, so a stream of chunks builds it once. */
  #index: BuyLinkIndex | undefined;

  /**
   * @param toolResults tool results labelled with their tool's name ({@link BuyLinkSources}).
   * @param options which tools are trusted (`catalogToolNames`, default `search_catalog`).
   */
  constructor(toolResults: BuyLinkSources = [], options: BuyLinkTrustOptions = {}) {
    this.#trust = { catalogToolNames: [...trustedToolNames(options)] };
    this.#trusted = trustedToolNames(options);
    this.add(toolResults);
  }

  /** Adds the buy links of more tool results (a later step or turn); others are ignored. */
  add(toolResults: BuyLinkSources): void {
    const list = [...toolResults];
    for (const source of list)
      collectCatalogUrls(catalogResultOf(source, this.#trusted), this.#catalogUrls);
    for (const link of collectBuyLinks(list, this.#trust)) {
      this.#index = undefined;
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

  /** The links a reference id names: one when it resolves. */
  linksOf(id: string): readonly string[] {
    return this.#byId.get(id) ?? [];
  }

  /** @internal The lookup structures of the links, for checking answers against them. */
  index(): BuyLinkIndex {
    if (!this.#index) {
      const urls = new Set([...this.#catalogUrls].filter((url) => !this.#links.has(url)));
      this.#index = new BuyLinkIndex([...this.#links], urls);
    }
    return this.#index;
  }
}

function reasonOf(malformed: boolean, links: number): UnresolvedReference['reason'] {
  if (malformed) return 'malformed';
  return links === 0 ? 'unknown' : 'ambiguous';
}

/**
 * Replaces the references in a text with the buy links they name. `offset` shifts the
 * reported positions (for text that is part of a longer stream).
 */
export function resolveWith(
  text: string,
  references: BuyLinkReferences,
  options: ResolveBuyLinksOptions = {},
  offset = 0,
): BuyLinkResolution {
  const resolution: BuyLinkResolution = { text: '', resolved: [], unresolved: [] };
  const replace = (reference: string, ...groups: Array<string | number | undefined>): string => {
    const [full, bare, malformed, index] = groups as [string?, string?, string?, number?];
    const id = full ?? bare;
    const links = id === undefined ? [] : references.linksOf(id);
    if (links.length === 1) {
      resolution.resolved.push({ reference, link: links[0]! });
      return links[0]!;
    }
    const start = offset + (index ?? 0);
    const issue: UnresolvedReference = {
      reference,
      start,
      end: start + reference.length,
      reason: reasonOf(malformed !== undefined, links.length),
    };
    resolution.unresolved.push(issue);
    return options.unresolved ? options.unresolved(issue) : reference;
  };
  resolution.text = text.replace(REFERENCE_PATTERN, replace);
  return resolution;
}

/**
 * Turns the buy link references a model wrote (`[[buy:123456780]]`, in `reference` mode)
 * back into the exact buy links of the trusted catalog results the application got (tool
 * results labelled with their tool's name, {@link BuyLinkSources}). A reference that names
 * no link (mistyped, invented, from another tool's output, or from results not given) or
 * two links is left as written and reported in `unresolved`, never dropped or guessed.
 *
 * @example
 * const { text, unresolved } = resolveBuyLinks(answer, result.steps.flatMap((s) => s.toolResults));
 */
export function resolveBuyLinks(
  text: string,
  toolResults: BuyLinkSources,
  options: ResolveBuyLinksOptions = {},
): BuyLinkResolution {
  return resolveWith(text, new BuyLinkReferences(toolResults, options), options);
}
