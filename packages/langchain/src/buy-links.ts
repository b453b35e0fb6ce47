import {
  BuyLinkReferences,
  type BuyLinkSources,
  BuyLinkStreamResolver,
  type FinalizeBuyLinksOptions,
  type FinalizedBuyLinks,
  finalizeBuyLinks,
  type UnresolvedReference,
} from '@catalogkit/links';
import { AIMessage, AIMessageChunk, type BaseMessage } from '@langchain/core/messages';

/** Options of the LangChain buy link helpers. */
export interface BuyLinkMessageOptions extends FinalizeBuyLinksOptions {
  /** Tool results from elsewhere (earlier turns kept outside `messages`), as `{ toolName, output }`. */
  toolOutputs?: BuyLinkSources;
  /** Streams only: called for each reference that names no buy link. */
  onUnresolved?: (issue: UnresolvedReference) => void;
}

type Content = BaseMessage['content'];

function isToolMessage(message: BaseMessage): boolean {
  return message.getType() === 'tool';
}

function isAiMessage(message: BaseMessage): boolean {
  return message.getType() === 'ai';
}

/** A ToolMessage's full result (its artifact), labelled with the name of its tool. */
function resultOf(message: BaseMessage): { toolName: string; output: unknown } {
  const { name, artifact } = message as { name?: unknown; artifact?: unknown };
  return { toolName: typeof name === 'string' ? name : '', output: artifact };
}

/**
 * The full results of the tools: the artifacts of their ToolMessages, each labelled with
 * its tool's name (`{ toolName, output }`), so only the catalog tool's give buy links.
 */
export function toolArtifactsOf(
  messages: readonly BaseMessage[],
): Array<{ toolName: string; output: unknown }> {
  return messages.filter(isToolMessage).map(resultOf);
}

/** Applies `rewrite` to a message's text: a string, or each text block of a block list. */
function mapText(content: Content, rewrite: (text: string) => string): Content {
  if (typeof content === 'string') return rewrite(content);
  return content.map((block) =>
    block.type === 'text' && typeof block.text === 'string'
      ? { ...block, text: rewrite(block.text) }
      : block,
  ) as Content;
}

/** What {@link finalizeAIMessageBuyLinks} gives back. */
export interface FinalizedAIMessage extends Omit<FinalizedBuyLinks, 'text'> {
  /** A copy of the final AIMessage whose text is safe to show. */
  message: AIMessage;
  /** Its text, as a string (text blocks joined). */
  text: string;
}

/**
 * Makes an agent's final answer safe to show, in either `buyLinks` mode: the last AIMessage's
 * buy link references become the exact links, and the result is verified: any link that is
 * not a buy link, and any raw HTML, is reported (`unresolved`, `issues`, `ok`). The links come from the artifacts of the `search_catalog` ToolMessages
 * in `messages` (the agent state's messages) and `toolOutputs`; other tools' artifacts are
 * never trusted. Show `text` with `renderAnswerHtml` or `rehypeBuyLinks` (`@catalogkit/links`).
 *
 * @example
 * const state = await agent.invoke({ messages: [new HumanMessage('Trail shoes under $120?')] });
 * const { text, ok } = finalizeAIMessageBuyLinks(state.messages);
 */
export function finalizeAIMessageBuyLinks(
  messages: readonly BaseMessage[],
  options: BuyLinkMessageOptions = {},
): FinalizedAIMessage {
  const last = [...messages].reverse().find(isAiMessage);
  if (!last) throw new TypeError('finalizeAIMessageBuyLinks: no AIMessage in messages');
  const references = new BuyLinkReferences(
    [...(options.toolOutputs ?? []), ...toolArtifactsOf(messages)],
    options,
  );
  const reports: Array<Omit<FinalizedBuyLinks, 'text'>> = [];
  const content = mapText(last.content, (text) => {
    const { text: safe, ...report } = finalizeBuyLinks(text, references, options);
    reports.push(report);
    return safe;
  });
  const message = new AIMessage({
    content,
    ...(last.id === undefined ? {} : { id: last.id }),
    tool_calls: (last as AIMessage).tool_calls ?? [],
    additional_kwargs: last.additional_kwargs,
    response_metadata: last.response_metadata,
  });
  const text = typeof content === 'string' ? content : mapTextJoin(content);
  return {
    message,
    text,
    resolved: reports.flatMap((report) => report.resolved),
    unresolved: reports.flatMap((report) => report.unresolved),
    verified: reports.flatMap((report) => report.verified),
    issues: reports.flatMap((report) => report.issues),
    ok: reports.every((report) => report.ok),
  };
}

function mapTextJoin(content: Content): string {
  const texts: string[] = [];
  mapText(content, (text) => {
    texts.push(text);
    return text;
  });
  return texts.join('');
}

/** A streamed item: a message (`model.stream()`) or `[message, metadata]` (`streamMode: 'messages'`). */
export type StreamedMessage = BaseMessage | [BaseMessage, ...unknown[]];

function messageOf(item: StreamedMessage): BaseMessage {
  return Array.isArray(item) ? item[0] : item;
}

function withMessage<T extends StreamedMessage>(item: T, message: BaseMessage): T {
  return (Array.isArray(item) ? [message, ...item.slice(1)] : message) as T;
}

function chunkWith(like: BaseMessage, content: Content): AIMessageChunk {
  const chunk = like as AIMessageChunk;
  return new AIMessageChunk({
    content,
    ...(chunk.id === undefined ? {} : { id: chunk.id }),
    ...(chunk.tool_call_chunks ? { tool_call_chunks: chunk.tool_call_chunks } : {}),
    additional_kwargs: chunk.additional_kwargs,
    response_metadata: chunk.response_metadata,
    ...(chunk.usage_metadata ? { usage_metadata: chunk.usage_metadata } : {}),
  });
}

/**
 * Resolves buy link references in streamed AIMessage chunks: wrap `model.stream(...)` or
 * `agent.stream(input, { streamMode: 'messages' })` with it and show what it yields. A
 * reference split across chunks is held back until complete (and released at the end of
 * the message or stream), so the shopper never sees half of one. Buy links come from the
 * artifacts of ToolMessages in the stream and `toolOutputs`; a reference that names no link
 * is reported to `onUnresolved` and left as written.
 *
 * @example
 * const stream = await agent.stream({ messages }, { streamMode: 'messages' });
 * for await (const [chunk] of resolveBuyLinkChunks(stream)) process.stdout.write(String(chunk.content));
 */
export async function* resolveBuyLinkChunks<T extends StreamedMessage>(
  stream: AsyncIterable<T>,
  options: BuyLinkMessageOptions = {},
): AsyncGenerator<T> {
  const references = new BuyLinkReferences(options.toolOutputs ?? [], options);
  let open: { resolver: BuyLinkStreamResolver; item: T; id: string | undefined } | undefined;
  const close = function* (): Generator<T> {
    const rest = open?.resolver.end();
    if (open && rest) yield withMessage(open.item, chunkWith(messageOf(open.item), rest));
    open = undefined;
  };
  for await (const item of stream) {
    const message = messageOf(item);
    if (!isAiMessage(message)) {
      yield* close();
      if (isToolMessage(message)) references.add([resultOf(message)]);
      yield item;
      continue;
    }
    if (open && open.id !== message.id) yield* close();
    open ??= {
      resolver: new BuyLinkStreamResolver({ ...options, toolOutputs: references }),
      item,
      id: message.id,
    };
    const resolver = open.resolver;
    open.item = item;
    yield withMessage(
      item,
      chunkWith(
        message,
        mapText(message.content, (text) => resolver.write(text)),
      ),
    );
  }
  yield* close();
}
