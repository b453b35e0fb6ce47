import {
  AgentEventLog,
  type Approver,
  type CatalogConnection,
  finishShoppingRun,
  runStartEvent,
  SHOPPING_INSTRUCTIONS,
  type ShoppingRunOptions,
  type ShoppingRunResult,
} from '@catalogkit/example-shared';
import { createCatalogTools, isCatalogToolFailure } from '@catalogkit/langchain';
import { AIMessage, type BaseMessage, ToolMessage } from '@langchain/core/messages';
import { Command, MemorySaver } from '@langchain/langgraph';
import {
  createAgent,
  type HITLRequest,
  type HITLResponse,
  humanInTheLoopMiddleware,
} from 'langchain';
import type { ChosenChatModel } from './model.js';

/** The tool that changes the user's data: it only runs once the approver says yes. */
const TOOL_NEEDING_APPROVAL = 'update_collection';
/** Rounds of "ask for approval, resume": one update per request is expected. */
const MAX_APPROVAL_ROUNDS = 3;
/** Graph steps per round; each model call and each tool batch is a few steps. */
const RECURSION_LIMIT = 40;

function createShoppingAgent(connection: CatalogConnection, model: ChosenChatModel) {
  return createAgent({
    model: model.model,
    systemPrompt: SHOPPING_INSTRUCTIONS,
    tools: createCatalogTools({ clientOptions: connection.clientOptions }),
    // LangChain's approval flow: the middleware interrupts the graph before the tool runs;
    // the run resumes with a Command carrying the decision. Interrupts need a checkpointer.
    middleware: [
      humanInTheLoopMiddleware({
        interruptOn: { [TOOL_NEEDING_APPROVAL]: { allowedDecisions: ['approve', 'reject'] } },
      }),
    ],
    checkpointer: new MemorySaver(),
  });
}

/** A tool call the model made, by id. */
interface SeenToolCall {
  id: string;
  name: string;
  args: unknown;
}

/** Turns the agent's graph updates into events, remembering each tool call's arguments. */
class UpdateReader {
  private readonly calls = new Map<string, SeenToolCall>();
  /** The tool calls of the model's latest message: the ones an interrupt is about. */
  private latestCalls: SeenToolCall[] = [];
  answer = '';

  constructor(private readonly log: AgentEventLog) {}

  /** Model messages: their tool calls (for later) or the answer. */
  readModelMessages(messages: BaseMessage[]): void {
    for (const message of messages) {
      if (!AIMessage.isInstance(message)) continue;
      this.latestCalls = (message.tool_calls ?? []).flatMap((call) =>
        call.id ? [{ id: call.id, name: call.name, args: call.args }] : [],
      );
      for (const call of this.latestCalls) this.calls.set(call.id, call);
      if (this.latestCalls.length === 0) this.answer = message.text;
    }
  }

  /** Tool messages: the call that ran, then its artifact (the full result) or its failure. */
  readToolMessages(messages: BaseMessage[]): void {
    for (const message of messages) {
      if (!ToolMessage.isInstance(message)) continue;
      const toolCallId = message.tool_call_id;
      const call = this.calls.get(toolCallId);
      const toolName = message.name ?? call?.name ?? '';
      this.log.emit({ type: 'tool-call', toolName, toolCallId, input: call?.args });
      const artifact: unknown = message.artifact;
      if (isCatalogToolFailure(artifact)) {
        this.log.emit({
          type: 'tool-error',
          toolName,
          toolCallId,
          message: artifact.error.message,
        });
      } else if (message.status === 'error') {
        this.log.emit({ type: 'tool-error', toolName, toolCallId, message: message.text });
      } else {
        this.log.emit({ type: 'tool-result', toolName, toolCallId, output: artifact });
      }
    }
  }

  /**
   * The ids of the calls an interrupt asks about. The interrupt carries names and
   * arguments only; its actions are the latest message's calls of the guarded tools, in order.
   */
  idsOfActions(actions: HITLRequest['actionRequests']): string[] {
    const remaining = [...this.latestCalls];
    return actions.map((action) => {
      const index = remaining.findIndex((call) => call.name === action.name);
      return index < 0 ? '' : (remaining.splice(index, 1)[0]?.id ?? '');
    });
  }
}

/** Asks the approver about each action of an interrupt; the answers resume the run. */
async function decide(
  request: HITLRequest,
  approver: Approver,
  reader: UpdateReader,
  log: AgentEventLog,
): Promise<HITLResponse> {
  const ids = reader.idsOfActions(request.actionRequests);
  const decisions: HITLResponse['decisions'] = [];
  for (const [index, action] of request.actionRequests.entries()) {
    const toolCallId = ids[index] ?? '';
    log.emit({ type: 'approval-request', toolName: action.name, toolCallId, input: action.args });
    const decision = await approver({ toolName: action.name, input: action.args });
    log.emit({ type: 'approval-decision', toolName: action.name, toolCallId, ...decision });
    decisions.push(
      decision.approved
        ? { type: 'approve' }
        : {
            type: 'reject',
            message: `Not approved by ${decision.decidedBy}: ${decision.reason ?? 'no reason given'}. Do not retry.`,
          },
    );
  }
  return { decisions };
}

type Update = { messages?: BaseMessage[] } | undefined;
type Interrupt = { value?: HITLRequest };

/** Runs one round of the graph; returns the approval request it stopped at, if any. */
async function runRound(
  agent: ReturnType<typeof createShoppingAgent>,
  input: Parameters<ReturnType<typeof createShoppingAgent>['stream']>[0],
  threadId: string,
  reader: UpdateReader,
): Promise<HITLRequest | undefined> {
  let pending: HITLRequest | undefined;
  const stream = await agent.stream(input, {
    configurable: { thread_id: threadId },
    streamMode: 'updates',
    recursionLimit: RECURSION_LIMIT,
  });
  for await (const chunk of stream) {
    for (const [node, update] of Object.entries(chunk as Record<string, unknown>)) {
      if (node === '__interrupt__') pending = (update as Interrupt[])[0]?.value;
      // Only the model's and the tools' own messages: the approval middleware repeats the
      // model's message, and its rejection messages are already shown as the decision.
      else if (node === 'model_request')
        reader.readModelMessages((update as Update)?.messages ?? []);
      else if (node === 'tools') reader.readToolMessages((update as Update)?.messages ?? []);
    }
  }
  return pending;
}

/**
 * Runs the shopping agent on LangChain: `createAgent` with the catalog tools and the
 * human-in-the-loop middleware on `update_collection`. When the graph stops for approval,
 * the approver decides and the run resumes with `new Command({ resume: { decisions } })`.
 */
export async function runShoppingAgent(
  options: ShoppingRunOptions<ChosenChatModel>,
): Promise<ShoppingRunResult> {
  const { request, connection, model, approver } = options;
  const log = new AgentEventLog(options.onEvent);
  log.emit(runStartEvent('LangChain', options));
  const agent = createShoppingAgent(connection, model);
  const reader = new UpdateReader(log);
  const threadId = crypto.randomUUID();
  let input: Parameters<typeof agent.stream>[0] = {
    messages: [{ role: 'user', content: request }],
  };
  for (let round = 0; round < MAX_APPROVAL_ROUNDS; round++) {
    const pending = await runRound(agent, input, threadId, reader);
    if (!pending) break;
    input = new Command({ resume: await decide(pending, approver, reader, log) });
  }
  return finishShoppingRun(log, connection, reader.answer, TOOL_NEEDING_APPROVAL);
}
