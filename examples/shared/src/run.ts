import type { Collection } from '@catalogkit/core';
import type { Approver } from './approvals.js';
import type { CatalogConnection } from './connection.js';
import type { AgentEvent, AgentEventListener, ModelDescription } from './events.js';

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
