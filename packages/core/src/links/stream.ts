import type { BuyLinkSources } from './buy-links.js';
import { unfinishedReferenceStart } from './references.js';
import {
  BuyLinkReferences,
  type ResolveBuyLinksOptions,
  resolveWith,
  type UnresolvedReference,
} from './resolve.js';
import { type BuyLinkCheckOptions, type BuyLinkIssue, CheckState, repairWith } from './verify.js';

/** Options of {@link BuyLinkStreamResolver}. */
export interface BuyLinkStreamOptions extends ResolveBuyLinksOptions, BuyLinkCheckOptions {
  /**
   * Tool results from before the stream (earlier turns), whose references may be written; a
   * {@link BuyLinkReferences} is shared, so resolvers of one stream see the same results.
   */
  toolOutputs?: BuyLinkSources | BuyLinkReferences;
  /** Called for each reference that cannot be resolved, as it is found. */
  onUnresolved?: (issue: UnresolvedReference) => void;
  /**
   * Also repair corrupted copies of buy links as they stream (inline mode), like
   * `repairBuyLinks`. The last word is then held back until a space ends it, so a URL is only
   * shown once it is whole. Default `false`.
   */
  repair?: boolean;
  /** With `repair`: called for each URL that resembles a buy link but has no clear match. */
  onUnrepaired?: (issue: BuyLinkIssue) => void;
}

/**
 * A word held back longer than this is let through and reported as it is: no buy link is
 * this long, and holding more would make each chunk cost the whole word again.
 */
const MAX_HELD_WORD = 16_384;

/**
 * Where the last word starts: a URL never spans whitespace, so text before it is whole. A
 * loop from the end (`/\S*$/` retries every start of a long word: quadratic).
 */
function lastWordStart(text: string): number {
  let i = text.length;
  while (i > 0 && !/\s/.test(text[i - 1]!)) i--;
  return i;
}

/**
 * Resolves buy link references in text that arrives in chunks, for framework adapters:
 * `write` returns what can be shown now and holds back a reference that a later chunk may
 * complete (`[[buy:12` … `3456780]]`), so where the chunks break never changes the result.
 * With `repair`, corrupted copies of buy links are repaired too. `end` returns what is held.
 * Tool outputs can be added as they arrive between chunks.
 */
export class BuyLinkStreamResolver {
  readonly #references: BuyLinkReferences;
  readonly #options: BuyLinkStreamOptions;
  #held = '';
  /** Characters of text already returned, for the positions of reported references. */
  #emitted = 0;
  readonly unresolved: UnresolvedReference[] = [];
  /** With `repair`: URLs repaired to their true link, and those left as written. */
  readonly repaired: BuyLinkIssue[] = [];
  readonly unrepaired: BuyLinkIssue[] = [];

  /** With `repair`: the rest of an overlong word is let through unchecked (already reported). */
  #passing = false;
  /** One work budget and memo for the whole stream, as for checking its text at once. */
  readonly #check = new CheckState();

  constructor(options: BuyLinkStreamOptions = {}) {
    this.#options = options;
    const results = options.toolOutputs ?? [];
    this.#references =
      results instanceof BuyLinkReferences ? results : new BuyLinkReferences(results, options);
  }

  /**
   * Adds a tool result that arrived in the stream, with the name of its tool: only a
   * catalog tool's result gives buy links.
   */
  addToolResult(toolName: string, output: unknown): void {
    this.#references.add([{ toolName, output }]);
  }

  /** Takes a chunk of text; returns the text that is safe to show now. */
  write(chunk: string): string {
    if (this.#passing) return this.#pass(chunk);
    const text = this.#held + chunk;
    const reference = unfinishedReferenceStart(text);
    const cut = this.#options.repair ? Math.min(reference, lastWordStart(text)) : reference;
    if (this.#options.repair && text.length - cut > MAX_HELD_WORD) return this.#overlong(text, cut);
    this.#held = text.slice(cut);
    return this.#resolve(text.slice(0, cut));
  }

  /** A word too long to hold: shown as it is, reported once, and its rest let through. */
  #overlong(text: string, cut: number): string {
    this.#held = '';
    this.#passing = true;
    const before = this.#resolve(text.slice(0, cut));
    const word = text.slice(cut);
    const issue: BuyLinkIssue = {
      url: word,
      start: this.#emitted,
      end: this.#emitted + word.length,
      href: word,
      kind: 'text',
      candidates: [],
    };
    this.#emitted += word.length;
    this.unrepaired.push(issue);
    this.#options.onUnrepaired?.(issue);
    return before + word;
  }

  /** The rest of an overlong word, up to the first whitespace; then back to normal. */
  #pass(chunk: string): string {
    const end = chunk.search(/\s/);
    if (end < 0) {
      this.#emitted += chunk.length;
      return chunk;
    }
    this.#passing = false;
    this.#emitted += end;
    return chunk.slice(0, end) + this.write(chunk.slice(end));
  }

  /** Returns whatever is held back (at the end of a text block or of the stream). */
  end(): string {
    const text = this.#held;
    this.#held = '';
    return this.#resolve(text);
  }

  #resolve(text: string): string {
    if (!text) return '';
    const { text: resolved, unresolved } = resolveWith(
      text,
      this.#references,
      this.#options,
      this.#emitted,
    );
    this.#emitted += text.length;
    for (const issue of unresolved) {
      this.unresolved.push(issue);
      this.#options.onUnresolved?.(issue);
    }
    return this.#options.repair ? this.#repair(resolved) : resolved;
  }

  #repair(text: string): string {
    const repair = repairWith(text, this.#references, this.#options, this.#check);
    this.repaired.push(...repair.repaired);
    for (const issue of repair.unrepaired) {
      this.unrepaired.push(issue);
      this.#options.onUnrepaired?.(issue);
    }
    return repair.text;
  }
}
