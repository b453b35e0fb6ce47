import type { Collection } from '@catalogkit/core';
import type { Approver } from '../cli/approvals.js';
import type { CatalogConnection } from '../cli/connection.js';
import { collectionAfterUpdate } from './collection-after.js';
import {
  type AgentEvent,
  type AgentEventListener,
  AgentEventLog,
  type ModelDescription,
} from './events.js';

/** What a demo run of an example agent takes, whatever the framework. */
export interface DemoRunOptions {
  /** The shopper's request in plain words. */
  request: string;
  /** Where the tools send their requests (emulator or real service). */
  connection: CatalogConnection;
  /** Decides on each call of a tool that changes the user's data. */
  approver: Approver;
  /** Receives each event as it happens (e.g. the printer). */
  onEvent?: AgentEventListener;
}

/** What a demo run did. */
export interface DemoRunResult {
  /** The model's final answer. */
  text: string;
  /** Every step, in order. */
  events: AgentEvent[];
  /** The collection after the update, when one was made. */
  collectionAfter?: Collection;
}

/** A decision as an example's `approve` option takes it. */
type Approve = (call: { toolName: string; input: unknown }) => Promise<{
  approved: boolean;
  reason?: string;
}>;

/** Starts a run's log with its header: what it was asked, where the catalog is, which model decides. */
export function startRunLog(
  framework: string,
  model: ModelDescription,
  options: DemoRunOptions,
): AgentEventLog {
  const log = new AgentEventLog(options.onEvent);
  log.emit({
    type: 'run-start',
    framework,
    request: options.request,
    model,
    backend: options.connection.backend,
    baseUrl: options.connection.clientOptions.baseUrl,
  });
  return log;
}

/**
 * The `approve` option for an example's agent: logs the question, asks the approver and logs
 * the decision (with who decided), so the approval shows up in the run as it happens.
 */
export function loggedApproval(approver: Approver, log: AgentEventLog): Approve {
  return async ({ toolName, input }) => {
    log.emit({ type: 'approval-request', toolName, input });
    const decision = await approver({ toolName, input });
    log.emit({ type: 'approval-decision', toolName, ...decision });
    return decision;
  };
}

/**
 * Ends a run the same way in every example: logs the model's answer, then the collection
 * after the last successful update (see {@link collectionAfterUpdate}), and returns what the
 * run did. `updateOutputs` are the update tool's full results, read from the agent's steps.
 */
export function finishRunLog(
  log: AgentEventLog,
  connection: CatalogConnection,
  text: string,
  updateOutputs: readonly unknown[],
): DemoRunResult {
  log.emit({ type: 'answer', text });
  const after = collectionAfterUpdate(updateOutputs, connection);
  if (after) log.emit(after);
  return {
    text,
    events: log.events,
    ...(after ? { collectionAfter: after.collection } : {}),
  };
}
