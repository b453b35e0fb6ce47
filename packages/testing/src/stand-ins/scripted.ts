import type { Json } from '../json.js';
import type { ProviderArguments } from './arguments.js';
import {
  type ArgumentStyle,
  type ModelScript,
  type ModelView,
  playScript,
  type ScriptedTurn,
  type StandInScriptOptions,
} from './script.js';
import {
  type RecordedRequest,
  type RunningStandIn,
  type StandInReply,
  startStandIn,
} from './server.js';

/** What a wire's answer needs besides the turn. */
export interface AnswerContext {
  request: RecordedRequest;
  index: number;
  view: ModelView;
  style: ArgumentStyle;
}

/** One provider wire format: which paths it serves, its schema rules, its messages. */
export interface Wire {
  serves(path: string): boolean;
  /** Tool-schema problems by the provider's rules (the request is then refused). */
  problems(body: Json): string[];
  /** The provider's error answer to a refused request. */
  rejection(problems: string[]): StandInReply;
  /** What the model was shown in this request. */
  view(request: RecordedRequest, index: number): ModelView;
  /** The turn in the provider's answer format, JSON or streamed. */
  answer(turn: ScriptedTurn, context: AnswerContext): StandInReply;
}

/** How a wire writes arguments for a declared tool (OpenAI strict tools get nulls). */
export type ArgumentsMode = (strict: boolean | undefined) => ProviderArguments;

function notFound(path: string): StandInReply {
  return { status: 404, json: { error: { message: `No stand-in route for ${path}` } } };
}

/** Starts a stand-in answering `script` on the wires given, on one loopback port. */
export async function startScriptedStandIn(
  prefix: string,
  wires: readonly Wire[],
  script: ModelScript,
  options: StandInScriptOptions = {},
): Promise<RunningStandIn> {
  const style = options.argumentStyle ?? 'provider';
  const standIn: RunningStandIn = await startStandIn({
    prefix,
    reply: (request, index) => {
      const wire = wires.find((candidate) => candidate.serves(request.path));
      if (!wire) return notFound(request.path);
      const problems = wire.problems(request.body);
      if (problems.length > 0) {
        standIn.schemaProblems.push(...problems);
        return wire.rejection(problems);
      }
      const view = wire.view(request, index);
      standIn.views.push(view);
      let turn: ScriptedTurn;
      try {
        turn = playScript(script, view);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        standIn.scriptErrors.push(message);
        return { status: 500, json: { error: { message: `The model script failed: ${message}` } } };
      }
      return wire.answer(turn, { request, index, view, style });
    },
  });
  return standIn;
}
