import type { Collection } from '@catalogkit/core';

/** Which model drives the agent, for the run's header. */
export interface ModelDescription {
  /** True for the offline scripted model; false for a real provider's model. */
  scripted: boolean;
  /** e.g. "scripted shopper (MockLanguageModelV4)" or "openai gpt-4.1-mini". */
  label: string;
}

/**
 * What an example agent did, step by step, independent of the framework. The examples emit
 * these as they run; the printer shows them and the tests assert on them.
 */
export type AgentEvent =
  | {
      type: 'run-start';
      framework: string;
      request: string;
      model: ModelDescription;
      backend: 'emulator' | 'service';
      baseUrl: string;
    }
  | { type: 'tool-call'; toolName: string; toolCallId: string; input: unknown }
  | { type: 'tool-result'; toolName: string; toolCallId: string; output: unknown }
  | { type: 'tool-error'; toolName: string; toolCallId: string; message: string }
  | { type: 'approval-request'; toolName: string; input: unknown }
  | {
      type: 'approval-decision';
      toolName: string;
      approved: boolean;
      /** Who decided, e.g. "--yes flag" or "you, at the terminal". */
      decidedBy: string;
      reason?: string;
    }
  | { type: 'answer'; text: string }
  | {
      type: 'collection-after';
      collection: Collection;
      /** Where the collection was read from. */
      source: 'emulator state' | 'update_collection result';
    };

/** Receives events as they happen. */
export type AgentEventListener = (event: AgentEvent) => void;

/** Collects every event and forwards each one to an optional listener (e.g. the printer). */
export class AgentEventLog {
  readonly events: AgentEvent[] = [];

  constructor(private readonly listener?: AgentEventListener) {}

  /** Records an event and passes it on. */
  emit(event: AgentEvent): void {
    this.events.push(event);
    this.listener?.(event);
  }
}
