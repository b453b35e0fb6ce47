import { geminiDeclarationProblems } from './schema-rules.js';
import { type ResultSeen, type ScriptedTurn, turnAt } from './script.js';
import { type RecordedRequest, type RunningStandIn, startStandIn } from './server.js';

type Json = Record<string, unknown>;

/**
 * A stand-in of the Gemini API (`POST /v1beta/models/{model}:generateContent`), which
 * `@ai-sdk/google` calls. Each function declaration is checked against the schema subset
 * Gemini accepts (a 400 like Gemini's otherwise); answers are `functionCall` parts with the
 * arguments as Gemini sends them (optional fields left out), then text.
 */
export async function startGoogleStandIn(turns: readonly ScriptedTurn[]): Promise<RunningStandIn> {
  const standIn: RunningStandIn = await startStandIn({
    prefix: '/v1beta',
    reply: (request, index) => {
      const problems = declarations(request).flatMap((declaration) =>
        geminiDeclarationProblems(declaration),
      );
      if (problems.length > 0) {
        standIn.schemaProblems.push(...problems);
        return {
          status: 400,
          json: { error: { code: 400, message: problems.join('; '), status: 'INVALID_ARGUMENT' } },
        };
      }
      const turn = turnAt(turns, index);
      const parts =
        typeof turn === 'string'
          ? [{ text: turn }]
          : turn.map((call) => ({ functionCall: { name: call.name, args: call.args } }));
      return {
        status: 200,
        json: {
          candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
          usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
          modelVersion: 'stand-in',
        },
      };
    },
  });
  return standIn;
}

/** The function declarations of a request. */
export function declarations(request: RecordedRequest): Json[] {
  const tools = (request.body.tools ?? []) as { functionDeclarations?: Json[] }[];
  return tools.flatMap((tool) => tool.functionDeclarations ?? []);
}

/** The tool results the model received in a request (`functionResponse` parts). */
export function googleResultsSeen(request: RecordedRequest | undefined): ResultSeen[] {
  const contents = (request?.body.contents ?? []) as { parts?: Json[] }[];
  return contents.flatMap((content) =>
    (content.parts ?? [])
      .filter((part) => part.functionResponse !== undefined)
      .map((part) => {
        const response = part.functionResponse as { name: string; response: Json };
        return {
          callId: response.name,
          text: JSON.stringify(response.response),
          isError: false,
        };
      }),
  );
}
