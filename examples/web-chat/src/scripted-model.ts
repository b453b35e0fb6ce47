import { MockLanguageModelV4, simulateReadableStream } from 'ai/test';

type StreamOptions = Parameters<MockLanguageModelV4['doStream']>[0];
type Prompt = StreamOptions['prompt'];
type Message = Prompt[number];
type StreamPart =
  Awaited<ReturnType<MockLanguageModelV4['doStream']>>['stream'] extends ReadableStream<infer Part>
    ? Part
    : never;
type ToolResultPart = Extract<
  Extract<Message, { role: 'tool' }>['content'][number],
  { type: 'tool-result' }
>;

/** Label shown when the app starts. */
export const SCRIPTED_MODEL_LABEL = 'scripted shopper (MockLanguageModelV4 from ai/test)';

/** The collection the shopper saves to unless they name another (`col_...`). */
const DEFAULT_COLLECTION = 'col_summer';
/** How many products "add the first N" names, in words or digits. */
const COUNT_WORDS: Readonly<Record<string, number>> = { one: 1, it: 1, two: 2, both: 2, three: 3 };

/** What one model call decides: tool calls, or the answer's text. */
type Decision =
  | { kind: 'tools'; calls: Array<{ toolName: string; input: object }> }
  | { kind: 'answer'; text: string };

function textOf(message: Message): string {
  if (message.role !== 'user') return '';
  return message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

function resultText(part: ToolResultPart): string {
  const { output } = part;
  switch (output.type) {
    case 'text':
    case 'error-text':
      return output.value;
    case 'json':
    case 'error-json':
      return JSON.stringify(output.value);
    case 'execution-denied':
      return output.reason ?? 'denied';
    case 'content':
      return output.value.flatMap((item) => (item.type === 'text' ? [item.text] : [])).join('\n');
  }
}

function toolResults(messages: Prompt): ToolResultPart[] {
  return messages.flatMap((message) =>
    message.role === 'tool'
      ? message.content.filter((part): part is ToolResultPart => part.type === 'tool-result')
      : [],
  );
}

/** The last search's text, or '' when there was none. */
function lastSearchText(prompt: Prompt): string {
  const searches = toolResults(prompt).filter((part) => part.toolName === 'search_catalog');
  const last = searches.at(-1);
  return last ? resultText(last) : '';
}

/** The first price in a text (`$1,299.00`, `€49.00`, `2.50 XYZ`), or Infinity when it shows none. */
function firstPrice(text: string): number {
  const match = text.match(/[$€£¥]\s?(\d[\d,]*(?:\.\d+)?)|(\d[\d,]*(?:\.\d+)?)\s?[A-Z]{3}\b/);
  const value = Number((match?.[1] ?? match?.[2] ?? '').replaceAll(',', ''));
  return match && Number.isFinite(value) ? value : Number.POSITIVE_INFINITY;
}

/** Each product's price: the first one between its id and the next product's. */
function pricesOf(searchText: string, ids: readonly string[]): Map<string, number> {
  const starts = ids.map((id) => searchText.indexOf(id));
  return new Map(
    ids.map((id, index) => [id, firstPrice(searchText.slice(starts[index], starts[index + 1]))]),
  );
}

/**
 * The products the shopper's words name, from the last search in its order: "the cheapest",
 * "the first one" / "it", "the first two" / "both", "three", or a digit; "all" takes every one.
 * Without a count it takes one, so the proposal never holds more than was asked for.
 */
export function productIdsToSave(request: string, searchText: string): string[] {
  const ids = [...new Set(searchText.match(/\bprod_[A-Za-z0-9]+/g) ?? [])];
  if (/\bcheapest\b/i.test(request)) {
    const prices = pricesOf(searchText, ids);
    const price = (id: string) => prices.get(id) ?? Number.POSITIVE_INFINITY;
    const cheapest = ids.reduce<string | undefined>(
      (best, id) => (best === undefined || price(id) < price(best) ? id : best),
      undefined,
    );
    return cheapest === undefined ? [] : [cheapest];
  }
  if (/\ball\b/i.test(request)) return ids;
  const word = request.toLowerCase().match(/\b(one|it|two|both|three|\d+)\b/)?.[1];
  const count = word === undefined ? 1 : (COUNT_WORDS[word] ?? Number(word));
  return ids.slice(0, Math.max(1, count));
}

function decideOnRequest(request: string, prompt: Prompt): Decision {
  if (!/\b(add|save|keep)\b/i.test(request)) {
    return {
      kind: 'tools',
      calls: [
        {
          toolName: 'search_catalog',
          input: { query: request, limit: 4, cursor: null, placements: ['affiliate'] },
        },
      ],
    };
  }
  const productIds = productIdsToSave(request, lastSearchText(prompt));
  if (productIds.length === 0) {
    return { kind: 'answer', text: 'Search for something first, then I can save it for you.' };
  }
  const collectionId = request.match(/\bcol_[A-Za-z0-9_]+/)?.[0] ?? DEFAULT_COLLECTION;
  const clause = { brand_ids: [], website_ids: [], category_ids: [], product_ids: productIds };
  const input = {
    collection_id: collectionId,
    name: null,
    description: null,
    add_clauses: [clause],
    replace_clauses: null,
    remove_clause_ids: null,
  };
  return { kind: 'tools', calls: [{ toolName: 'update_collection', input }] };
}

/** The input of the call a result answers (tool results do not repeat it). */
function inputOf(prompt: Prompt, toolCallId: string): unknown {
  for (const message of prompt) {
    if (message.role !== 'assistant') continue;
    for (const part of message.content) {
      if (part.type === 'tool-call' && part.toolCallId === toolCallId) return part.input;
    }
  }
  return undefined;
}

function answerTo(result: ToolResultPart, request: string, prompt: Prompt): string {
  const text = resultText(result);
  const { type } = result.output;
  if (type === 'execution-denied') return 'Understood: I left your collection unchanged.';
  if (type === 'error-text' || type === 'error-json') {
    return `That did not work: ${text} Please try again in a moment.`;
  }
  if (result.toolName === 'update_collection') {
    const input = JSON.stringify(inputOf(prompt, result.toolCallId) ?? {});
    const added = (input.match(/\bprod_[A-Za-z0-9]+/g) ?? []).join(' and ');
    return `Done: I added ${added} to your collection. Anything else?`;
  }
  const count = new Set(text.match(/\bprod_[A-Za-z0-9]+/g) ?? []).size;
  if (count === 0) return `I found nothing for “${request}”. Try other words?`;
  return `Here are ${count} matches for “${request}”, best first. Each card links to the retailer. Say “add the first two to my Summer collection” to save them.`;
}

/**
 * Decides the next step from the conversation: a new shopper message asks for a search
 * (or, when it says "add", a collection update with the last search's first products);
 * a tool result since that message is answered in words.
 */
export function decide(prompt: Prompt): Decision {
  let lastUser = prompt.length - 1;
  while (lastUser >= 0 && prompt[lastUser]?.role !== 'user') lastUser--;
  const request = lastUser === -1 ? '' : textOf(prompt[lastUser] as Message).trim();
  const sinceRequest = toolResults(prompt.slice(lastUser + 1));
  const last = sinceRequest.at(-1);
  return last
    ? { kind: 'answer', text: answerTo(last, request, prompt) }
    : decideOnRequest(request, prompt);
}

const NO_USAGE = {
  inputTokens: {
    total: undefined,
    noCache: undefined,
    cacheRead: undefined,
    cacheWrite: undefined,
  },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
};

/** The decision as the stream a provider sends: the answer word by word, or the tool calls. */
function toStreamParts(decision: Decision, stepNumber: number): StreamPart[] {
  const start: StreamPart = { type: 'stream-start', warnings: [] };
  if (decision.kind === 'tools') {
    return [
      start,
      ...decision.calls.map(
        (call, index): StreamPart => ({
          type: 'tool-call',
          toolCallId: `call_${stepNumber}_${index + 1}`,
          toolName: call.toolName,
          input: JSON.stringify(call.input),
        }),
      ),
      {
        type: 'finish',
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage: NO_USAGE,
      },
    ];
  }
  const words = decision.text.split(/(?<= )/);
  return [
    start,
    { type: 'text-start', id: 'answer' },
    ...words.map((delta): StreamPart => ({ type: 'text-delta', id: 'answer', delta })),
    { type: 'text-end', id: 'answer' },
    { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: NO_USAGE },
  ];
}

/**
 * A streaming model for offline runs: it reads the conversation from the prompt and
 * decides the next tool calls or the answer. The tools, their HTTP calls and results are
 * real; only the choosing is scripted. The answer streams word by word, like a real model.
 */
export function createScriptedModel(options: { wordDelayMs?: number } = {}): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    provider: 'catalogkit-example',
    modelId: 'scripted-shopper',
    doStream: async ({ prompt }) => {
      const stepNumber = prompt.filter((message) => message.role === 'assistant').length + 1;
      const chunks = toStreamParts(decide(prompt), stepNumber);
      return {
        stream: simulateReadableStream({ chunks, chunkDelayInMs: options.wordDelayMs ?? 20 }),
      };
    },
  });
}
