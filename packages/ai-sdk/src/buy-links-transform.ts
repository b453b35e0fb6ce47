import {
  BuyLinkReferences,
  type BuyLinkSources,
  BuyLinkStreamResolver,
  type UnresolvedReference,
} from '@catalogkit/links';
import type { StreamTextTransform, TextStreamPart, ToolSet } from 'ai';

/** Options of {@link resolveBuyLinksTransform}. */
export interface BuyLinksTransformOptions {
  /**
   * Tool results of earlier turns, labelled with their tool's name (`{ toolName, output }`,
   * e.g. `steps.flatMap((s) => s.toolResults)`), for a chat whose model may write references
   * it read before this call; results of this call's tools are picked up from the stream.
   */
  toolOutputs?: BuyLinkSources;
  /** Names of the tools whose results are catalog results. Default `CATALOG_RESULT_TOOLS` of `@catalogkit/links`. */
  catalogToolNames?: readonly string[];
  /** Called for each reference that names no buy link; it stays in the text as written. */
  onUnresolved?: (issue: UnresolvedReference) => void;
  /** What replaces an unresolved reference. Default: the reference as written. */
  unresolved?: (issue: UnresolvedReference) => string;
}

type Part<TOOLS extends ToolSet> = TextStreamPart<TOOLS>;

/** A text delta of the held-back text, which has no part of its own to ride on. */
function textDelta<TOOLS extends ToolSet>(id: string, text: string): Part<TOOLS> {
  return { type: 'text-delta', id, text } as Part<TOOLS>;
}

/**
 * A `streamText` transform (`experimental_transform`) that turns buy link references
 * (`[[buy:123456780]]`, written by a model whose tools use `buyLinks: 'reference'`) into the
 * exact buy links, in the streamed text and in everything derived from it (`text`, UI message
 * streams, `onFinish`). A reference split across chunks is held back until it is complete, so
 * the shopper never sees half of one. The buy links come from the `search_catalog` results in
 * the same stream (and `toolOutputs` of earlier turns); no other tool's result is trusted. A reference that names no link is
 * reported to `onUnresolved` and left as written, never dropped or guessed.
 *
 * @example
 * const result = streamText({ model, tools, prompt, experimental_transform: resolveBuyLinksTransform() });
 */
export function resolveBuyLinksTransform<TOOLS extends ToolSet = ToolSet>(
  options: BuyLinksTransformOptions = {},
): StreamTextTransform<TOOLS> {
  return () => {
    const references = new BuyLinkReferences(options.toolOutputs ?? [], options);
    const blocks = new Map<string, BuyLinkStreamResolver>();
    const resolverFor = (id: string) => {
      let resolver = blocks.get(id);
      if (!resolver) {
        resolver = new BuyLinkStreamResolver({ ...options, toolOutputs: references });
        blocks.set(id, resolver);
      }
      return resolver;
    };
    const flush = (id: string, controller: TransformStreamDefaultController<Part<TOOLS>>) => {
      const rest = blocks.get(id)?.end();
      blocks.delete(id);
      if (rest) controller.enqueue(textDelta<TOOLS>(id, rest));
    };
    return new TransformStream<Part<TOOLS>, Part<TOOLS>>({
      transform(part, controller) {
        if (part.type === 'text-delta') {
          const text = resolverFor(part.id).write(part.text);
          if (text) controller.enqueue({ ...part, text });
          return;
        }
        if (part.type === 'text-end') flush(part.id, controller);
        // Labelled with the tool's name: only the catalog tool's results give buy links.
        if (part.type === 'tool-result' && !part.preliminary) {
          references.add([{ toolName: part.toolName, output: part.output }]);
        }
        controller.enqueue(part);
      },
      flush(controller) {
        for (const id of [...blocks.keys()]) flush(id, controller);
      },
    });
  };
}
