import { isJson, type Json, jsonList, stringOr } from '../json.js';
import { writeArguments } from './arguments.js';
import { textPieces } from './openai-chat.js';
import { duplicateNameProblems, geminiDeclarationProblems } from './schema-rules.js';
import {
  type CallSeen,
  contentText,
  type DeclaredTool,
  type ModelScript,
  type ModelView,
  type ResultSeen,
  type ScriptedTurn,
  type StandInScriptOptions,
} from './script.js';
import { type AnswerContext, startScriptedStandIn, type Wire } from './scripted.js';
import type { RecordedRequest, RunningStandIn, StandInReply } from './server.js';

/** The function declarations of a request. */
export function declarations(request: RecordedRequest): Json[] {
  return jsonList(request.body.tools).flatMap((tool) => jsonList(tool.functionDeclarations));
}

function partsOf(content: Json): Json[] {
  return jsonList(content.parts);
}

/** The tool results the model received in a request (`functionResponse` parts). */
export function googleResultsSeen(request: RecordedRequest | undefined): ResultSeen[] {
  return jsonList(request?.body.contents)
    .flatMap(partsOf)
    .filter((part) => isJson(part.functionResponse))
    .map((part) => {
      const response = part.functionResponse as Json;
      return {
        callId: String(response.name),
        name: String(response.name),
        text: JSON.stringify(response.response),
        isError: false,
      };
    });
}

/** The text a function response carries (`{ name, content }` from the AI SDK), else its JSON. */
function responseText(result: ResultSeen): ResultSeen {
  try {
    const response = JSON.parse(result.text) as unknown;
    if (isJson(response) && typeof response.content === 'string')
      return { ...result, text: response.content };
    if (isJson(response) && typeof response.output === 'string')
      return { ...result, text: response.output };
  } catch {
    // Not JSON: the text as it is.
  }
  return result;
}

function googleTools(request: RecordedRequest): DeclaredTool[] {
  return declarations(request).map((declaration) => ({
    name: String(declaration.name),
    description: stringOr(declaration.description),
    parameters: declaration.parametersJsonSchema ?? declaration.parameters,
    strict: undefined,
  }));
}

function googleView(request: RecordedRequest, index: number): ModelView {
  const contents = jsonList(request.body.contents);
  const calls: CallSeen[] = contents
    .filter((content) => content.role === 'model')
    .flatMap(partsOf)
    .filter((part) => isJson(part.functionCall))
    .map((part) => {
      const call = part.functionCall as Json;
      return { callId: String(call.id ?? call.name), name: String(call.name), args: call.args };
    });
  const system = isJson(request.body.systemInstruction)
    ? partsOf(request.body.systemInstruction)
    : [];
  return {
    request: index,
    instructions: contentText(system),
    userMessages: contents
      .filter((content) => content.role === 'user')
      .map((content) =>
        contentText(partsOf(content).filter((part) => typeof part.text === 'string')),
      )
      .filter(Boolean),
    calls,
    results: googleResultsSeen(request).map(responseText),
    tools: googleTools(request),
    stream: request.path.includes(':streamGenerateContent'),
  };
}

function googleAnswer(turn: ScriptedTurn, context: AnswerContext): StandInReply {
  // Gemini leaves optional fields out rather than sending null.
  const parts =
    typeof turn === 'string'
      ? [{ text: turn }]
      : turn.map((call) => ({
          functionCall: {
            name: call.name,
            args: writeArguments(
              call.args,
              context.view.tools.find((tool) => tool.name === call.name),
              'omit',
              context.style,
            ),
          },
        }));
  const usageMetadata = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };
  const candidate = (chunk: Json[], finish: boolean) => ({
    candidates: [
      {
        content: { role: 'model', parts: chunk },
        index: 0,
        ...(finish ? { finishReason: 'STOP' } : {}),
      },
    ],
    ...(finish ? { usageMetadata } : {}),
    modelVersion: 'stand-in',
  });
  if (!context.view.stream) return { status: 200, json: candidate(parts, true) };
  const chunks = typeof turn === 'string' ? textPieces(turn).map((text) => [{ text }]) : [parts];
  return {
    status: 200,
    events: chunks.map((chunk, i) => candidate(chunk, i === chunks.length - 1)),
  };
}

/** Gemini (`POST /models/{model}:generateContent` and `:streamGenerateContent?alt=sse`). */
export const geminiWire: Wire = {
  serves: (path) => /^\/models\/[^:]+:(generateContent|streamGenerateContent)/.test(path),
  problems: (body) => {
    const declarations = jsonList(body.tools).flatMap((tool) =>
      jsonList(tool.functionDeclarations),
    );
    return [
      ...declarations.flatMap(geminiDeclarationProblems),
      ...duplicateNameProblems(declarations.map((declaration) => declaration.name)),
    ];
  },
  rejection: (problems) => ({
    status: 400,
    json: { error: { code: 400, message: problems.join('; '), status: 'INVALID_ARGUMENT' } },
  }),
  view: googleView,
  answer: googleAnswer,
};

/**
 * A stand-in of the Gemini API (`POST /v1beta/models/{model}:generateContent`, and
 * `:streamGenerateContent?alt=sse`), which `@ai-sdk/google` and `@langchain/google-genai`
 * call. Each function declaration is checked against the schema subset Gemini accepts (a 400
 * like Gemini's otherwise); answers are `functionCall` parts with the arguments as Gemini
 * sends them (optional fields left out), then text.
 *
 * @example
 * const standIn = await startGoogleStandIn([[{ name: 'search_catalog', args: { query: 'tents' } }], 'Done.']);
 * const model = createGoogleGenerativeAI({ baseURL: standIn.baseURL, apiKey: 'test' })('gemini-2.5-flash');
 */
export function startGoogleStandIn(
  script: ModelScript,
  options?: StandInScriptOptions,
): Promise<RunningStandIn> {
  return startScriptedStandIn('/v1beta', [geminiWire], script, options);
}
