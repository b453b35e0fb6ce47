import { type Json, jsonList, stringOr } from '../json.js';
import {
  openAiCalls,
  openAiRejection,
  openAiSchemaProblems,
  openAiTools,
  parseArgs,
  textPieces,
} from './openai-chat.js';
import {
  type CallSeen,
  contentText,
  type ModelView,
  nameResults,
  type ResultSeen,
  type ScriptedTurn,
} from './script.js';
import type { AnswerContext, Wire } from './scripted.js';
import type { RecordedRequest, SseEvent, StandInReply } from './server.js';

/** An output item the stand-in sent. */
type OutputItem = Json & { id: string; type: string };

/**
 * What one stand-in remembers of its answers, as OpenAI stores responses: each output item
 * by id (for an `item_reference`) and each response's whole conversation (for a request
 * that continues one with `previous_response_id`).
 */
class ResponsesMemory {
  readonly items = new Map<string, OutputItem>();
  readonly conversations = new Map<string, Json[]>();

  /** The conversation a request stands for, as the model sees it. */
  itemsOf(body: Json): Json[] {
    const previous = typeof body.previous_response_id === 'string' ? body.previous_response_id : '';
    const earlier = this.conversations.get(previous) ?? [];
    const given = inputItems(body).map((item) =>
      item.type === 'item_reference' ? (this.items.get(String(item.id)) ?? item) : item,
    );
    return [...earlier, ...given];
  }

  remember(responseId: string, body: Json, output: OutputItem[]): void {
    for (const item of output) this.items.set(item.id, item);
    this.conversations.set(responseId, [...this.itemsOf(body), ...output]);
  }
}

/** The input items of a Responses request (a lone string is one user message). */
function inputItems(body: Json): Json[] {
  if (typeof body.input === 'string') return [{ role: 'user', content: body.input }];
  return jsonList(body.input);
}

/** The tool results the model received in a Responses request (`function_call_output` items). */
export function responsesResultsSeen(items: Json[]): ResultSeen[] {
  return items
    .filter((item) => item.type === 'function_call_output')
    .map((item) => ({
      callId: String(item.call_id),
      text: contentText(item.output),
      isError: false,
    }));
}

function responsesCalls(items: Json[]): CallSeen[] {
  return items
    .filter((item) => item.type === 'function_call')
    .map((item) => ({
      callId: String(item.call_id),
      name: String(item.name),
      args: parseArgs(item.arguments),
    }));
}

function messagesOf(items: Json[], roles: string[]): string[] {
  return items
    .filter(
      (item) =>
        (item.type === undefined || item.type === 'message') && roles.includes(String(item.role)),
    )
    .map((item) => contentText(item.content));
}

function responsesView(
  request: RecordedRequest,
  index: number,
  memory: ResponsesMemory,
): ModelView {
  const items = memory.itemsOf(request.body);
  const calls = responsesCalls(items);
  const instructions = [
    stringOr(request.body.instructions),
    ...messagesOf(items, ['system', 'developer']),
  ];
  return {
    request: index,
    instructions: instructions.filter(Boolean).join('\n'),
    userMessages: messagesOf(items, ['user']),
    calls,
    results: nameResults(responsesResultsSeen(items), calls),
    tools: openAiTools(request.body, true),
    stream: request.body.stream === true,
  };
}

function outputOf(turn: ScriptedTurn, context: AnswerContext): OutputItem[] {
  if (typeof turn === 'string') {
    return [
      {
        type: 'message',
        id: `msg_${context.index}`,
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: turn, annotations: [] }],
      },
    ];
  }
  return openAiCalls(turn, context).map((call) => ({
    type: 'function_call',
    id: `fc_${call.id}`,
    call_id: call.id,
    name: call.name,
    arguments: call.arguments,
    status: 'completed',
  }));
}

const usage = {
  input_tokens: 10,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 5,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 15,
};

function responseOf(context: AnswerContext, output: OutputItem[], status: string): Json {
  return {
    id: `resp_${context.index}`,
    object: 'response',
    created_at: 1_767_225_600,
    status,
    error: null,
    incomplete_details: null,
    instructions: null,
    model: stringOr(context.request.body.model, 'stand-in'),
    output,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    text: { format: { type: 'text' } },
    usage: status === 'completed' ? usage : null,
  };
}

/** The events that stream one output item: added, its deltas, done. */
function itemEvents(item: OutputItem, outputIndex: number): SseEvent[] {
  const at = { item_id: item.id, output_index: outputIndex };
  if (item.type === 'function_call') {
    return [
      {
        event: 'response.output_item.added',
        data: {
          output_index: outputIndex,
          item: { ...item, arguments: '', status: 'in_progress' },
        },
      },
      { event: 'response.function_call_arguments.delta', data: { ...at, delta: item.arguments } },
      {
        event: 'response.function_call_arguments.done',
        data: { ...at, arguments: item.arguments },
      },
      { event: 'response.output_item.done', data: { output_index: outputIndex, item } },
    ];
  }
  const text = String((item.content as { text: string }[])[0]?.text ?? '');
  const part = { ...at, content_index: 0 };
  return [
    {
      event: 'response.output_item.added',
      data: { output_index: outputIndex, item: { ...item, status: 'in_progress', content: [] } },
    },
    {
      event: 'response.content_part.added',
      data: { ...part, part: { type: 'output_text', text: '', annotations: [] } },
    },
    ...textPieces(text).map((delta) => ({
      event: 'response.output_text.delta',
      data: { ...part, delta, logprobs: [] },
    })),
    { event: 'response.output_text.done', data: { ...part, text, logprobs: [] } },
    {
      event: 'response.content_part.done',
      data: { ...part, part: { type: 'output_text', text, annotations: [] } },
    },
    { event: 'response.output_item.done', data: { output_index: outputIndex, item } },
  ];
}

/** Every event gets its type in the data and a sequence number, as OpenAI sends them. */
function numbered(events: SseEvent[]): SseEvent[] {
  return events.map((event, i) => ({
    event: event.event,
    data: { type: event.event, sequence_number: i, ...(event.data as Json) },
  }));
}

function responsesAnswer(
  turn: ScriptedTurn,
  context: AnswerContext,
  memory: ResponsesMemory,
): StandInReply {
  const output = outputOf(turn, context);
  memory.remember(`resp_${context.index}`, context.request.body, output);
  if (context.request.body.stream !== true) {
    return { status: 200, json: responseOf(context, output, 'completed') };
  }
  const pending = responseOf(context, [], 'in_progress');
  const events = numbered([
    { event: 'response.created', data: { response: pending } },
    { event: 'response.in_progress', data: { response: pending } },
    ...output.flatMap(itemEvents),
    { event: 'response.completed', data: { response: responseOf(context, output, 'completed') } },
  ]);
  return { status: 200, events, named: true };
}

/**
 * OpenAI Responses (`POST /responses`), which `@openai/agents` and `@ai-sdk/openai`'s default
 * models call. Function tools are strict unless they say `strict: false` (the Responses
 * default), and checked by strict-mode rules. Each stand-in remembers its answers, so a
 * request that refers to them (`item_reference`, `previous_response_id`) reads as the full
 * conversation.
 */
export function responsesWire(): Wire {
  const memory = new ResponsesMemory();
  return {
    serves: (path) => path.startsWith('/responses'),
    problems: (body) => openAiSchemaProblems(openAiTools(body, true)),
    rejection: openAiRejection,
    view: (request, index) => responsesView(request, index, memory),
    answer: (turn, context) => responsesAnswer(turn, context, memory),
  };
}
