import {
  type AgentEvent,
  type DemoRunOptions,
  type DemoRunResult,
  finishRunLog,
  loggedApproval,
  type ModelDescription,
  startRunLog,
} from '@catalogkit/example-demo-support';
import type { LanguageModel, StepResult, ToolSet } from 'ai';
import { defaultModel, runShoppingAgent } from '../src/agent.js';
import { createScriptedModel, SCRIPTED_MODEL_LABEL } from './scripted-model.js';

/**
 * The agent's default (real) model when OPENAI_API_KEY is set; otherwise the offline
 * scripted model. A blank key counts as unset, so a `.env` copied from `.env.example` stays
 * offline.
 */
export function chooseModel(): { model: LanguageModel; description: ModelDescription } {
  if (!process.env.OPENAI_API_KEY?.trim()) {
    return {
      model: createScriptedModel(),
      description: { scripted: true, label: SCRIPTED_MODEL_LABEL },
    };
  }
  const model = defaultModel();
  const id = typeof model === 'string' ? model : model.modelId;
  return { model, description: { scripted: false, label: `openai ${id}` } };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The tool calls that ran in a step, then their results, as printer events. A call the
 * approver denied never ran, so it has no result and is left out (the approval is already
 * logged).
 */
export function stepEvents(step: StepResult<ToolSet>): AgentEvent[] {
  const calls: AgentEvent[] = [];
  const outcomes: AgentEvent[] = [];
  for (const part of step.content) {
    if (part.type !== 'tool-result' && part.type !== 'tool-error') continue;
    const { toolName, toolCallId, input } = part;
    calls.push({ type: 'tool-call', toolName, toolCallId, input });
    outcomes.push(
      part.type === 'tool-result'
        ? { type: 'tool-result', toolName, toolCallId, output: part.output }
        : { type: 'tool-error', toolName, toolCallId, message: errorMessage(part.error) },
    );
  }
  return [...calls, ...outcomes];
}

/** The full results of a tool's calls, from the agent's steps. */
function outputsOf(steps: StepResult<ToolSet>[], toolName: string): unknown[] {
  return steps.flatMap((step) =>
    step.toolResults.flatMap((result) => (result.toolName === toolName ? [result.output] : [])),
  );
}

/** One demo run of the AI SDK agent: prints each step as it ends and the collection after. */
export async function runDemo(options: DemoRunOptions): Promise<DemoRunResult> {
  const { model, description } = chooseModel();
  const log = startRunLog('Vercel AI SDK', description, options);
  const { text, steps } = await runShoppingAgent(options.request, {
    model,
    clientOptions: options.connection.clientOptions,
    approve: loggedApproval(options.approver, log),
    onStepEnd: (step) => {
      for (const event of stepEvents(step)) log.emit(event);
    },
  });
  return finishRunLog(log, options.connection, text, outputsOf(steps, 'update_collection'));
}
