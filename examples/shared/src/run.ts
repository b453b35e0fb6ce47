import type { Collection } from '@catalogkit/core';
import type { Approver } from './approvals.js';
import { collectionAfterUpdate } from './collection-after.js';
import type { CatalogConnection } from './connection.js';
import type { AgentEvent, AgentEventListener, AgentEventLog, ModelDescription } from './events.js';

/** What a shopping run needs; `Model` is the framework's model plus its description. */
export interface ShoppingRunOptions<Model extends { description: ModelDescription }> {
  /** The shopper's request in plain words. */
  request: string;
  /** Where the tools send their requests (emulator or real service). */
  connection: CatalogConnection;
  model: Model;
  /** Decides on each call of a tool that changes the user's data. */
  approver: Approver;
  /** Receives each event as it happens (e.g. the printer). */
  onEvent?: AgentEventListener;
}

/** What a shopping run did. */
export interface ShoppingRunResult {
  /** The model's final answer. */
  text: string;
  /** Every step, in order. */
  events: AgentEvent[];
  /** The collection after the update, when one was made. */
  collectionAfter?: Collection;
}

/** The first event of a run: what it was asked, where the catalog is and which model decides. */
export function runStartEvent(
  framework: string,
  options: ShoppingRunOptions<{ description: ModelDescription }>,
): AgentEvent {
  return {
    type: 'run-start',
    framework,
    request: options.request,
    model: options.model.description,
    backend: options.connection.backend,
    baseUrl: options.connection.clientOptions.baseUrl,
  };
}

/**
 * Ends a run the same way in every example: logs the model's answer, then the collection
 * after the last successful update (see {@link collectionAfterUpdate}), and returns what the
 * run did.
 */
export function finishShoppingRun(
  log: AgentEventLog,
  connection: CatalogConnection,
  text: string,
  updateToolName?: string,
): ShoppingRunResult {
  log.emit({ type: 'answer', text });
  const after = collectionAfterUpdate(log.events, connection, updateToolName);
  if (after) log.emit(after);
  return {
    text,
    events: log.events,
    ...(after ? { collectionAfter: after.collection } : {}),
  };
}
