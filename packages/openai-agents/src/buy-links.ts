import {
  type BuyLinkSources,
  type FinalizeBuyLinksOptions,
  type FinalizedBuyLinks,
  finalizeBuyLinks,
} from '@catalogkit/links';
import type { RunItem } from '@openai/agents';
import { catalogToolOutputOf } from './create-catalog-tools.js';

/** The part of a run result the helpers read. */
export interface RunResultLike {
  finalOutput?: unknown;
  newItems: readonly RunItem[];
}

/** The name of the tool whose call a run item answers (`rawItem.name`). */
function toolNameOf(item: RunItem): string {
  const name = (item.rawItem as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' ? name : '';
}

/**
 * The full results of the run's catalog tool calls, in order (failed calls have none), each
 * labelled with its tool's name (`{ toolName, output }`), so only `search_catalog`'s give
 * buy links.
 */
export function toolOutputsOf(
  result: Pick<RunResultLike, 'newItems'>,
): Array<{ toolName: string; output: unknown }> {
  return result.newItems.flatMap((item) => {
    const output = catalogToolOutputOf(item);
    return output === undefined ? [] : [{ toolName: toolNameOf(item), output }];
  });
}

/** Options of {@link finalizeRunBuyLinks}: those of `finalizeBuyLinks`, plus earlier turns' outputs. */
export interface RunBuyLinkOptions extends FinalizeBuyLinksOptions {
  /** Tool results (`{ toolName, output }`) of earlier runs, whose links the answer may give. */
  toolOutputs?: BuyLinkSources;
}

/**
 * Makes a run's final answer safe to show, in either `buyLinks` mode: references become the
 * exact buy links, and the result is verified: any link that is not a buy link, and any raw
 * HTML, is reported (`unresolved`, `issues`, `ok`). The links come
 * from the run's `search_catalog` results and `toolOutputs`; your own tools' results are
 * never trusted. A final output that is not text
 * (an agent with an `outputType`) is read as empty: resolve its text fields with
 * `finalizeBuyLinks` from `@catalogkit/links`.
 *
 * @example
 * const result = await run(agent, 'Find trail running shoes');
 * const { text, ok } = finalizeRunBuyLinks(result);
 */
export function finalizeRunBuyLinks(
  result: RunResultLike,
  options: RunBuyLinkOptions = {},
): FinalizedBuyLinks {
  const text = typeof result.finalOutput === 'string' ? result.finalOutput : '';
  return finalizeBuyLinks(
    text,
    [...(options.toolOutputs ?? []), ...toolOutputsOf(result)],
    options,
  );
}
