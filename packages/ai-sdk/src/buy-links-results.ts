import {
  BuyLinkReferences,
  type BuyLinkSources,
  type FinalizeBuyLinksOptions,
  type FinalizedBuyLinks,
  finalizeBuyLinks,
} from '@catalogkit/core';

/** The part of a `generateText` (or awaited `streamText`) result the helper reads. */
export interface ResultWithSteps {
  text: string;
  steps: ReadonlyArray<{ toolResults: ReadonlyArray<{ output: unknown }> }>;
}

/** The outputs of every tool call of a `generateText` result, in order, all steps included. */
export function toolOutputsOf(result: Pick<ResultWithSteps, 'steps'>): unknown[] {
  return result.steps.flatMap((step) => step.toolResults.map((toolResult) => toolResult.output));
}

/** Options of the result helpers: those of `finalizeBuyLinks`, plus earlier turns' outputs. */
export interface BuyLinkResultOptions extends FinalizeBuyLinksOptions {
  /** Tool outputs of earlier turns, whose links the answer may give. */
  toolOutputs?: BuyLinkSources;
}

/**
 * Makes a `generateText` answer safe to show, in either `buyLinks` mode: references become
 * the exact buy links, corrupted copies of buy links are repaired when the true link is
 * clearly meant, and whatever is left is reported (`unresolved`, `unrepaired`, `ok`). The
 * links come from the result's own tool results (every step) and `toolOutputs`.
 *
 * @example
 * const result = await generateText({ model, tools, prompt, stopWhen: stepCountIs(5) });
 * const { text, ok } = finalizeResultBuyLinks(result);
 */
export function finalizeResultBuyLinks(
  result: ResultWithSteps,
  options: BuyLinkResultOptions = {},
): FinalizedBuyLinks {
  const outputs = [...(options.toolOutputs ?? []), ...toolOutputsOf(result)];
  return finalizeBuyLinks(result.text, outputs, options);
}

/** The parts of a UI message the helper reads and rewrites (AI SDK 5, 6 and 7 share them). */
export interface UIMessageLike {
  role: string;
  parts: ReadonlyArray<{ type: string }>;
}

type Outcome = Omit<FinalizedBuyLinks, 'text'>;

/** What {@link finalizeUIMessageBuyLinks} gives back. */
export interface FinalizedUIMessages<MESSAGE> {
  /** The messages, with the text parts of assistant messages made safe (others untouched). */
  messages: MESSAGE[];
  /** What happened in each rewritten text part, in order. */
  reports: Outcome[];
  /** True when every text part is `ok`. */
  ok: boolean;
}

function outputOfPart(part: { type: string }): unknown {
  const toolPart = part as { type: string; state?: string; output?: unknown };
  const isTool = toolPart.type.startsWith('tool-') || toolPart.type === 'dynamic-tool';
  return isTool && toolPart.state === 'output-available' ? toolPart.output : undefined;
}

/**
 * The same for UI messages (`useChat` messages, or those you store): each assistant text part
 * is made safe with the buy links of the tool parts of that message and of every message
 * before it. Returns new messages; the given ones are not changed.
 *
 * @example
 * const { messages: safe } = finalizeUIMessageBuyLinks(messages);
 */
export function finalizeUIMessageBuyLinks<MESSAGE extends UIMessageLike>(
  messages: readonly MESSAGE[],
  options: BuyLinkResultOptions = {},
): FinalizedUIMessages<MESSAGE> {
  const references = new BuyLinkReferences(options.toolOutputs ?? []);
  const reports: Outcome[] = [];
  const safe = messages.map((message) => {
    references.add(message.parts.map(outputOfPart));
    if (message.role !== 'assistant') return message;
    const parts = message.parts.map((part) => {
      if (part.type !== 'text') return part;
      const { text, ...report } = finalizeBuyLinks(
        (part as { type: string; text?: string }).text ?? '',
        references,
        options,
      );
      reports.push(report);
      return { ...part, text };
    });
    return { ...message, parts };
  });
  return { messages: safe, reports, ok: reports.every((report) => report.ok) };
}
