import { MAX_PARSED_CHARS } from './parse.js';
import {
  type BuyLinkReferences,
  type ResolveBuyLinksOptions,
  referencesOf,
  resolveWith,
  type UnresolvedReference,
  unfinishedReferenceStart,
} from './references.js';
import type { BuyLinkSources } from './sources.js';

/** Options of {@link BuyLinkStreamResolver}. */
export interface BuyLinkStreamOptions extends ResolveBuyLinksOptions {
  /** Tool results from earlier turns; a {@link BuyLinkReferences} is shared by resolvers. */
  toolOutputs?: BuyLinkSources | BuyLinkReferences;
  /** Called for each reference that cannot be resolved, as it is found. */
  onUnresolved?: (issue: UnresolvedReference) => void;
}

/**
 * Resolves buy link references in text that arrives in chunks: `write` returns what can be
 * shown now, holding back what a later chunk may make a reference (`[[buy:12` … `3456780]]`),
 * and reads each with the character before it, so any split gives `resolveBuyLinks` of the whole
 * text. `end` returns what is held. Render the result with `rehypeBuyLinks` or `renderAnswerHtml`.
 */
export class BuyLinkStreamResolver {
  readonly #references: BuyLinkReferences;
  readonly #options: BuyLinkStreamOptions;
  #held = '';
  /** Characters of text already resolved, for the positions of reported references. */
  #emitted = 0;
  /** The last character resolved: whether a bare `buy:ID` after it is a reference. */
  #before = '';
  readonly unresolved: UnresolvedReference[] = [];

  constructor(options: BuyLinkStreamOptions = {}) {
    this.#options = options;
    this.#references = referencesOf(options.toolOutputs ?? [], options);
  }

  /** Adds a tool result that arrived in the stream (only a catalog tool's gives buy links). */
  addToolResult(toolName: string, output: unknown): void {
    this.#references.add([{ toolName, output }]);
  }

  /** Takes a chunk of text; returns the text that is safe to show now. */
  write(chunk: string): string {
    const text = this.#held + chunk;
    // Past the limit nothing more is resolved (see `resolveBuyLinks`), so nothing is held.
    const cut =
      this.#emitted + text.length > MAX_PARSED_CHARS + 64
        ? text.length
        : Math.max(0, unfinishedReferenceStart(this.#before + text) - this.#before.length);
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
    const at = [this.#emitted, this.#before] as const;
    const resolution = resolveWith(text, this.#references, this.#options, ...at);
    this.#emitted += text.length;
    this.#before = text.slice(-1);
    for (const issue of resolution.unresolved) {
      this.unresolved.push(issue);
      this.#options.onUnresolved?.(issue);
    }
    return resolution.text;
  }
}
