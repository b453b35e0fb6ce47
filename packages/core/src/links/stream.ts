import type { BuyLinkSources } from './buy-links.js';
import { unfinishedReferenceStart } from './references.js';
import {
  BuyLinkReferences,
  type ResolveBuyLinksOptions,
  resolveWith,
  type UnresolvedReference,
} from './resolve.js';
import { type BuyLinkIssue, repairBuyLinks } from './verify.js';

/** Options of {@link BuyLinkStreamResolver}. */
export interface BuyLinkStreamOptions extends ResolveBuyLinksOptions {
  /**
   * Tool outputs from before the stream (earlier turns), whose references may be written; a
   * {@link BuyLinkReferences} is shared, so resolvers of one stream see the same outputs.
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

/** Where the last word starts: a URL never spans whitespace, so text before it is whole. */
function lastWordStart(text: string): number {
  const match = /\S*$/.exec(text);
  return match ? match.index : text.length;
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

  constructor(options: BuyLinkStreamOptions = {}) {
    this.#options = options;
    const outputs = options.toolOutputs ?? [];
    this.#references =
      outputs instanceof BuyLinkReferences ? outputs : new BuyLinkReferences(outputs);
  }

  /** Adds the buy links of a tool result that arrived in the stream. */
  addToolOutput(output: unknown): void {
    this.#references.add([output]);
  }

  /** Takes a chunk of text; returns the text that is safe to show now. */
  write(chunk: string): string {
    const text = this.#held + chunk;
    const reference = unfinishedReferenceStart(text);
    const cut = this.#options.repair ? Math.min(reference, lastWordStart(text)) : reference;
    this.#held = text.slice(cut);
    return this.#resolve(text.slice(0, cut));
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
    const repair = repairBuyLinks(text, this.#references.outputs());
    this.repaired.push(...repair.repaired);
    for (const issue of repair.unrepaired) {
      this.unrepaired.push(issue);
      this.#options.onUnrepaired?.(issue);
    }
    return repair.text;
  }
}
