import { createCatalogTools } from '@catalogkit/ai-sdk';
import {
  AgentEventLog,
  type Approver,
  finishShoppingRun,
  runStartEvent,
  SHOPPING_INSTRUCTIONS,
  type ShoppingRunOptions,
  type ShoppingRunResult,
} from '@catalogkit/example-shared';
import {
  isStepCount,
  type ModelMessage,
  type ToolApprovalResponse,
  ToolLoopAgent,
  type ToolSet,
} from 'ai';
import type { ChosenModel } from './model.js';

/** The tool that changes the user's data: it only runs once the approver says yes. */
const TOOL_NEEDING_APPROVAL = 'update_collection';
/** Model calls per `generate` round; the scripted shopper needs four. */
const MAX_STEPS = 12;
/** Rounds of "ask for approval, continue": one update per request is expected. */
const MAX_APPROVAL_ROUNDS = 3;

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function createAgent(tools: ToolSet, model: ChosenModel, log: AgentEventLog) {
  return new ToolLoopAgent({
    model: model.model,
    instructions: SHOPPING_INSTRUCTIONS,
    tools,
    // AI SDK 7: approval is a call option; 'user-approval' pauses the loop with a
    // tool-approval-request instead of running the tool.
    toolApproval: { [TOOL_NEEDING_APPROVAL]: 'user-approval' },
    stopWhen: isStepCount(MAX_STEPS),
    onToolExecutionStart: ({ toolCall }) => {
      log.emit({
        type: 'tool-call',
        toolName: toolCall.toolName,
        toolCallId: toolCall.toolCallId,
        input: toolCall.input,
      });
    },
    onToolExecutionEnd: ({ toolCall, toolOutput }) => {
      const { toolName, toolCallId } = toolCall;
      if (toolOutput.type === 'tool-result') {
        log.emit({ type: 'tool-result', toolName, toolCallId, output: toolOutput.output });
      } else {
        log.emit({
          type: 'tool-error',
          toolName,
          toolCallId,
          message: errorMessage(toolOutput.error),
        });
      }
    },
  });
}

type GenerateResult = Awaited<ReturnType<ReturnType<typeof createAgent>['generate']>>;

/** Asks the approver about every approval request of a round; the answers go back to the model. */
async function decideApprovals(
  result: GenerateResult,
  approver: Approver,
  log: AgentEventLog,
): Promise<ToolApprovalResponse[]> {
  const responses: ToolApprovalResponse[] = [];
  for (const part of result.content) {
    if (part.type !== 'tool-approval-request' || part.isAutomatic) continue;
    const { toolName, toolCallId, input } = part.toolCall;
    log.emit({ type: 'approval-request', toolName, toolCallId, input });
    const decision = await approver({ toolName, input });
    log.emit({ type: 'approval-decision', toolName, toolCallId, ...decision });
    responses.push({
      type: 'tool-approval-response',
      approvalId: part.approvalId,
      approved: decision.approved,
      ...(decision.reason === undefined ? {} : { reason: decision.reason }),
    });
  }
  return responses;
}

/**
 * Runs the shopping agent on the AI SDK: a ToolLoopAgent with the catalog tools, whose
 * collection update waits for the approver. Approval is the AI SDK 7 flow: the round ends
 * with a tool-approval-request, the decision is added as a tool-approval-response message,
 * and the next round runs (or skips) the tool and lets the model finish.
 */
export async function runShoppingAgent(
  options: ShoppingRunOptions<ChosenModel>,
): Promise<ShoppingRunResult> {
  const { request, connection, model, approver } = options;
  const log = new AgentEventLog(options.onEvent);
  log.emit(runStartEvent('Vercel AI SDK', options));
  const agent = createAgent(
    createCatalogTools({ clientOptions: connection.clientOptions }),
    model,
    log,
  );
  const messages: ModelMessage[] = [{ role: 'user', content: request }];
  let text = '';
  for (let round = 0; round < MAX_APPROVAL_ROUNDS; round++) {
    const result = await agent.generate({ messages });
    messages.push(...result.responseMessages);
    text = result.text;
    const approvals = await decideApprovals(result, approver, log);
    if (approvals.length === 0) break;
    messages.push({ role: 'tool', content: approvals });
  }
  return finishShoppingRun(log, connection, text, TOOL_NEEDING_APPROVAL);
}
