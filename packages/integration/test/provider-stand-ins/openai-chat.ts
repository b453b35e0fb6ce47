import { openAiStrictProblems } from './schema-rules.js';
import { callId, type ResultSeen, type ScriptedTurn, turnAt } from './script.js';
import {
  type RecordedRequest,
  type RunningStandIn,
  type StandInReply,
  startStandIn,
} from './server.js';

type Json = Record<string, unknown>;

/**
 * A stand-in of OpenAI's Chat Completions API (`POST /v1/chat/completions`), which
 * `@ai-sdk/openai` (`openai.chat`), `@ai-sdk/openai-compatible` and `@langchain/openai`
 * call. Tools declared with `strict: true` are checked against OpenAI's strict-mode rules
 * (a 400 like OpenAI's when one breaks them); answers follow `turns`, JSON or streamed.
 */
export async function startOpenAiChatStandIn(
  turns: readonly ScriptedTurn[],
): Promise<RunningStandIn> {
  const standIn: RunningStandIn = await startStandIn({
    prefix: '/v1',
    reply: (request, index) => {
      const problems = toolSchemaProblems(request.body);
      if (problems.length > 0) {
        standIn.schemaProblems.push(...problems);
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
      return answer(turnAt(turns, index), index, request.body.stream === true);
    },
  });
  return standIn;
}

/** Names of the tools a request declared, with their strict flag. */
export function declaredTools(request: RecordedRequest): { name: string; strict: unknown }[] {
  const tools = (request.body.tools ?? []) as { function: Json }[];
  return tools.map((tool) => ({ name: String(tool.function.name), strict: tool.function.strict }));
}

function toolSchemaProblems(body: Json): string[] {
  const tools = (body.tools ?? []) as { type: string; function: Json }[];
  return tools.flatMap((tool) =>
    tool.function.strict === true
      ? openAiStrictProblems(tool.function.parameters).map(
          (p) => `${String(tool.function.name)} ${p}`,
        )
      : [],
  );
}

const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

function answer(turn: ScriptedTurn, index: number, stream: boolean): StandInReply {
  const toolCalls =
    typeof turn === 'string'
      ? undefined
      : turn.map((call, i) => ({
          id: callId(index, i),
          type: 'function',
          function: { name: call.name, arguments: JSON.stringify(call.args) },
        }));
  const finish = toolCalls ? 'tool_calls' : 'stop';
  const base = { id: `chatcmpl_${index}`, created: 1_767_225_600, model: 'stand-in' };
  if (!stream) {
    const message = toolCalls
      ? { role: 'assistant', content: null, tool_calls: toolCalls }
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
  const chunk = (delta: Json, finishReason: string | null) => ({
    ...base,
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });
  const deltas = toolCalls
    ? toolCalls.map((call, i) =>
        chunk(
          { ...(i === 0 ? { role: 'assistant' } : {}), tool_calls: [{ index: i, ...call }] },
          null,
        ),
      )
    : String(turn)
        .split(/(?<= )/)
        .map((piece, i) =>
          chunk({ ...(i === 0 ? { role: 'assistant' } : {}), content: piece }, null),
        );
  return {
    status: 200,
    events: [
      ...deltas,
      chunk({}, finish),
      { ...base, object: 'chat.completion.chunk', choices: [], usage },
    ],
    done: true,
  };
}

/** The tool results the model received in a request (`role: 'tool'` messages). */
export function openAiResultsSeen(request: RecordedRequest | undefined): ResultSeen[] {
  const messages = (request?.body.messages ?? []) as Json[];
  return messages
    .filter((message) => message.role === 'tool')
    .map((message) => ({
      callId: String(message.tool_call_id),
      text: typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
      isError: false,
    }));
}
