import { callId, type ResultSeen, type ScriptedTurn, turnAt } from './script.js';
import { type RecordedRequest, type RunningStandIn, startStandIn } from './server.js';

type Json = Record<string, unknown>;

/**
 * A stand-in of Anthropic's Messages API (`POST /v1/messages`), which `@ai-sdk/anthropic`
 * calls. Tools must follow Anthropic's rules (name `^[a-zA-Z0-9_-]{1,64}$`, `input_schema`
 * an object schema); answers are `tool_use` blocks with the arguments as Claude sends them
 * (optional fields left out), then text.
 */
export async function startAnthropicStandIn(
  turns: readonly ScriptedTurn[],
): Promise<RunningStandIn> {
  const standIn: RunningStandIn = await startStandIn({
    prefix: '/v1',
    reply: (request, index) => {
      const problems = toolProblems(request.body);
      if (problems.length > 0) {
        standIn.schemaProblems.push(...problems);
        return {
          status: 400,
          json: {
            type: 'error',
            error: { type: 'invalid_request_error', message: problems.join('; ') },
          },
        };
      }
      const turn = turnAt(turns, index);
      const content =
        typeof turn === 'string'
          ? [{ type: 'text', text: turn }]
          : turn.map((call, i) => ({
              type: 'tool_use',
              id: callId(index, i),
              name: call.name,
              input: call.args,
            }));
      return {
        status: 200,
        json: {
          id: `msg_${index}`,
          type: 'message',
          role: 'assistant',
          model: String(request.body.model),
          content,
          stop_reason: typeof turn === 'string' ? 'end_turn' : 'tool_use',
          stop_sequence: null,
          usage: { input_tokens: 10, output_tokens: 5 },
        },
      };
    },
  });
  return standIn;
}

function toolProblems(body: Json): string[] {
  const tools = (body.tools ?? []) as Json[];
  return tools.flatMap((tool) => {
    const name = String(tool.name);
    const schema = tool.input_schema as Json | undefined;
    return [
      ...(/^[a-zA-Z0-9_-]{1,64}$/.test(name) ? [] : [`${name}: invalid tool name`]),
      ...(schema?.type === 'object' ? [] : [`${name}: input_schema must be an object schema`]),
    ];
  });
}

/** The tool results the model received in a request (`tool_result` blocks). */
export function anthropicResultsSeen(request: RecordedRequest | undefined): ResultSeen[] {
  const messages = (request?.body.messages ?? []) as { content: unknown }[];
  return messages.flatMap((message) =>
    (Array.isArray(message.content) ? (message.content as Json[]) : [])
      .filter((block) => block.type === 'tool_result')
      .map((block) => ({
        callId: String(block.tool_use_id),
        text:
          typeof block.content === 'string'
            ? block.content
            : ((block.content ?? []) as { text?: string }[])
                .map((part) => part.text ?? '')
                .join(''),
        isError: block.is_error === true,
      })),
  );
}
