import { type Json, jsonList, stringOr } from '../json.js';
import { writeArguments } from './arguments.js';
import { textPieces } from './openai-chat.js';
import { anthropicToolProblems, duplicateNameProblems } from './schema-rules.js';
import {
  type CallSeen,
  callId,
  contentText,
  type DeclaredTool,
  type ModelScript,
  type ModelView,
  nameResults,
  type ResultSeen,
  type ScriptedTurn,
  type StandInScriptOptions,
} from './script.js';
import { type AnswerContext, startScriptedStandIn, type Wire } from './scripted.js';
import type { RecordedRequest, RunningStandIn, SseEvent, StandInReply } from './server.js';

function blocksOf(message: Json): Json[] {
  return Array.isArray(message.content) ? jsonList(message.content) : [];
}

/** The tool results the model received in a request (`tool_result` blocks). */
export function anthropicResultsSeen(request: RecordedRequest | undefined): ResultSeen[] {
  return jsonList(request?.body.messages)
    .flatMap(blocksOf)
    .filter((block) => block.type === 'tool_result')
    .map((block) => ({
      callId: String(block.tool_use_id),
      text: contentText(block.content),
      isError: block.is_error === true,
    }));
}

function anthropicTools(body: Json): DeclaredTool[] {
  return jsonList(body.tools).map((tool) => ({
    name: String(tool.name),
    description: stringOr(tool.description),
    parameters: tool.input_schema,
    strict: typeof tool.strict === 'boolean' ? tool.strict : undefined,
  }));
}

function anthropicView(request: RecordedRequest, index: number): ModelView {
  const messages = jsonList(request.body.messages);
  const calls: CallSeen[] = messages
    .filter((message) => message.role === 'assistant')
    .flatMap(blocksOf)
    .filter((block) => block.type === 'tool_use')
    .map((block) => ({ callId: String(block.id), name: String(block.name), args: block.input }));
  const userMessages = messages
    .filter((message) => message.role === 'user')
    .map((message) =>
      typeof message.content === 'string'
        ? message.content
        : contentText(blocksOf(message).filter((block) => block.type === 'text')),
    )
    .filter(Boolean);
  return {
    request: index,
    instructions: contentText(request.body.system),
    userMessages,
    calls,
    results: nameResults(anthropicResultsSeen(request), calls),
    tools: anthropicTools(request.body),
    stream: request.body.stream === true,
  };
}

function contentOf(turn: ScriptedTurn, context: AnswerContext): Json[] {
  if (typeof turn === 'string') return [{ type: 'text', text: turn }];
  // Claude leaves optional fields out rather than sending null.
  return turn.map((call, i) => ({
    type: 'tool_use',
    id: callId(context.index, i),
    name: call.name,
    input: writeArguments(
      call.args,
      context.view.tools.find((tool) => tool.name === call.name),
      'omit',
      context.style,
    ),
  }));
}

function blockEvents(block: Json, index: number): SseEvent[] {
  if (block.type === 'text') {
    return [
      {
        event: 'content_block_start',
        data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
      },
      ...textPieces(String(block.text)).map((text) => ({
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index, delta: { type: 'text_delta', text } },
      })),
      { event: 'content_block_stop', data: { type: 'content_block_stop', index } },
    ];
  }
  return [
    {
      event: 'content_block_start',
      data: { type: 'content_block_start', index, content_block: { ...block, input: {} } },
    },
    {
      event: 'content_block_delta',
      data: {
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
      },
    },
    { event: 'content_block_stop', data: { type: 'content_block_stop', index } },
  ];
}

function anthropicAnswer(turn: ScriptedTurn, context: AnswerContext): StandInReply {
  const content = contentOf(turn, context);
  const stopReason = typeof turn === 'string' ? 'end_turn' : 'tool_use';
  const message = {
    id: `msg_${context.index}`,
    type: 'message',
    role: 'assistant',
    model: String(context.request.body.model),
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 },
  };
  if (context.request.body.stream !== true) return { status: 200, json: message };
  const start = {
    ...message,
    content: [],
    stop_reason: null,
    usage: { input_tokens: 10, output_tokens: 1 },
  };
  return {
    status: 200,
    named: true,
    events: [
      { event: 'message_start', data: { type: 'message_start', message: start } },
      ...content.flatMap(blockEvents),
      {
        event: 'message_delta',
        data: {
          type: 'message_delta',
          delta: { stop_reason: stopReason, stop_sequence: null },
          usage: { output_tokens: 5 },
        },
      },
      { event: 'message_stop', data: { type: 'message_stop' } },
    ],
  };
}

/** Anthropic Messages (`POST /messages`). */
export const anthropicWire: Wire = {
  serves: (path) => path.startsWith('/messages'),
  problems: (body) => {
    const tools = jsonList(body.tools);
    return [
      ...tools.flatMap(anthropicToolProblems),
      ...duplicateNameProblems(tools.map((tool) => tool.name)),
    ];
  },
  rejection: (problems) => ({
    status: 400,
    json: { type: 'error', error: { type: 'invalid_request_error', message: problems.join('; ') } },
  }),
  view: anthropicView,
  answer: anthropicAnswer,
};

/**
 * A stand-in of Anthropic's Messages API (`POST /v1/messages`, JSON or streamed), which
 * `@ai-sdk/anthropic` and `@langchain/anthropic` call. Tools must follow Anthropic's rules
 * (name `^[a-zA-Z0-9_-]{1,64}$`, `input_schema` an object schema; a 400 like Anthropic's
 * otherwise); answers are `tool_use` blocks with the arguments as Claude sends them (optional
 * fields left out), then text.
 *
 * @example
 * const standIn = await startAnthropicStandIn([[{ name: 'search_catalog', args: { query: 'tents' } }], 'Done.']);
 * const model = createAnthropic({ baseURL: standIn.baseURL, apiKey: 'test' })('claude-sonnet-4-5');
 */
export function startAnthropicStandIn(
  script: ModelScript,
  options?: StandInScriptOptions,
): Promise<RunningStandIn> {
  return startScriptedStandIn('/v1', [anthropicWire], script, options);
}
