import { isJson, type Json, jsonList, stringOr } from '../json.js';
import { writeArguments } from './arguments.js';
import { duplicateNameProblems, openAiNameProblems, openAiStrictProblems } from './schema-rules.js';
import {
  type CallSeen,
  callId,
  contentText,
  type DeclaredTool,
  type ModelView,
  nameResults,
  type ResultSeen,
  type ScriptedTurn,
} from './script.js';
import type { AnswerContext, Wire } from './scripted.js';
import type { RecordedRequest, StandInReply } from './server.js';

/** The tools of a Chat Completions or Responses request (`function` wrapper or flat). */
function functionsOf(body: Json): Json[] {
  return jsonList(body.tools).map((tool) => (isJson(tool.function) ? tool.function : tool));
}

/** Names of the tools a request declared, with their strict flag (either OpenAI API). */
export function declaredTools(request: RecordedRequest): { name: string; strict: unknown }[] {
  return functionsOf(request.body).map((tool) => ({
    name: String(tool.name),
    strict: tool.strict,
  }));
}

/**
 * The tools of an OpenAI request. `strictByDefault`: the Responses API treats a function tool
 * without `strict` as strict; Chat Completions as not.
 */
export function openAiTools(body: Json, strictByDefault: boolean): DeclaredTool[] {
  return functionsOf(body).map((tool) => ({
    name: String(tool.name),
    description: stringOr(tool.description),
    parameters: tool.parameters,
    strict: typeof tool.strict === 'boolean' ? tool.strict : strictByDefault || undefined,
  }));
}

/**
 * OpenAI's problems with a request's tools: every function's name, names given twice, and
 * strict mode's rules for every strict tool.
 */
export function openAiSchemaProblems(tools: DeclaredTool[]): string[] {
  return [
    ...tools.flatMap((tool) => openAiNameProblems(tool.name)),
    ...duplicateNameProblems(tools.map((tool) => tool.name)),
    ...tools.flatMap((tool) =>
      tool.strict === true
        ? openAiStrictProblems(tool.parameters).map((p) => `${tool.name} ${p}`)
        : [],
    ),
  ];
}

/** OpenAI's 400 for a function schema strict mode refuses. */
export function openAiRejection(problems: string[]): StandInReply {
  return {
    status: 400,
    json: {
      error: {
        message: `Invalid schema: ${problems.join('; ')}`,
        type: 'invalid_request_error',
        param: 'tools',
        code: 'invalid_function_parameters',
      },
    },
  };
}

/**
 * The tool calls of a turn as the model writes them: nulls for strict tools (unless
 * `strictNulls` is false, as with open models behind a compatible server), else omitted.
 */
export function openAiCalls(
  turn: readonly { name: string; args: Record<string, unknown> }[],
  context: AnswerContext,
  strictNulls = true,
) {
  return turn.map((call, i) => {
    const tool = context.view.tools.find((candidate) => candidate.name === call.name);
    const mode = strictNulls && tool?.strict === true ? 'nulls' : 'omit';
    return {
      id: callId(context.index, i),
      name: call.name,
      arguments: JSON.stringify(writeArguments(call.args, tool, mode, context.style)),
    };
  });
}

const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

function chunkOf(base: Json, delta: Json, finishReason: string | null): Json {
  return {
    ...base,
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

/** Text split after spaces, as a model streams it. */
export function textPieces(text: string): string[] {
  const pieces = text.split(/(?<= )/);
  return pieces.length > 0 ? pieces : [''];
}

function chatAnswer(
  turn: ScriptedTurn,
  context: AnswerContext,
  strictNulls: boolean,
): StandInReply {
  const calls =
    typeof turn === 'string'
      ? undefined
      : openAiCalls(turn, context, strictNulls).map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: call.arguments },
        }));
  const finish = calls ? 'tool_calls' : 'stop';
  const base = { id: `chatcmpl_${context.index}`, created: 1_767_225_600, model: 'stand-in' };
  if (context.request.body.stream !== true) {
    const message = calls
      ? { role: 'assistant', content: null, tool_calls: calls }
      : { role: 'assistant', content: turn };
    return {
      status: 200,
      json: {
        ...base,
        object: 'chat.completion',
        choices: [{ index: 0, message, finish_reason: finish }],
        usage,
      },
    };
  }
  const first = (i: number) => (i === 0 ? { role: 'assistant' } : {});
  const deltas = calls
    ? calls.map((call, i) =>
        chunkOf(base, { ...first(i), tool_calls: [{ index: i, ...call }] }, null),
      )
    : textPieces(String(turn)).map((piece, i) =>
        chunkOf(base, { ...first(i), content: piece }, null),
      );
  return {
    status: 200,
    events: [
      ...deltas,
      chunkOf(base, {}, finish),
      { ...base, object: 'chat.completion.chunk', choices: [], usage },
    ],
    done: true,
  };
}

function chatCalls(messages: Json[]): CallSeen[] {
  return messages
    .filter((message) => message.role === 'assistant')
    .flatMap((message) => jsonList(message.tool_calls))
    .map((call) => {
      const fn = isJson(call.function) ? call.function : {};
      return { callId: String(call.id), name: String(fn.name), args: parseArgs(fn.arguments) };
    });
}

/** Arguments sent as a JSON string, parsed (left as they are when they are not JSON). */
export function parseArgs(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** The tool results the model received in a request (`role: 'tool'` messages). */
export function openAiResultsSeen(request: RecordedRequest | undefined): ResultSeen[] {
  const messages = jsonList(request?.body.messages);
  return messages
    .filter((message) => message.role === 'tool')
    .map((message) => ({
      callId: String(message.tool_call_id),
      text: contentText(message.content),
      isError: false,
    }));
}

function chatView(request: RecordedRequest, index: number): ModelView {
  const messages = jsonList(request.body.messages);
  const textOf = (roles: string[]) =>
    messages
      .filter((message) => roles.includes(String(message.role)))
      .map((message) => contentText(message.content));
  const calls = chatCalls(messages);
  return {
    request: index,
    instructions: textOf(['system', 'developer']).join('\n'),
    userMessages: textOf(['user']),
    calls,
    results: nameResults(openAiResultsSeen(request), calls),
    tools: openAiTools(request.body, false),
    stream: request.body.stream === true,
  };
}

/**
 * OpenAI Chat Completions (`POST /chat/completions`). `openAi` false: a compatible server
 * (vLLM, Ollama, LM Studio...), which takes any schema, in front of an open model, which
 * leaves optional fields out even of strict tools.
 */
export function chatCompletionsWire(openAi: boolean): Wire {
  return {
    serves: (path) => path.startsWith('/chat/completions'),
    problems: (body) => (openAi ? openAiSchemaProblems(openAiTools(body, false)) : []),
    rejection: openAiRejection,
    view: chatView,
    answer: (turn, context) => chatAnswer(turn, context, openAi),
  };
}
