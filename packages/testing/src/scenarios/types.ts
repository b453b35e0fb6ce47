import type { ApprovalRecord } from '../assertions/changes.js';
import type {
  CatalogService,
  CatalogServiceOptions,
  ServiceClientOptions,
} from '../service/catalog-service.js';
import type { ModelScript } from '../stand-ins/script.js';
import type { RunningStandIn } from '../stand-ins/server.js';

/** The agent frameworks the kit can hand a model and tools to. */
export type Framework = 'ai-sdk' | 'langchain' | 'openai-agents';

/** A tool call that changes the shopper's data, waiting for their decision. */
export interface ApprovalRequest {
  toolName: string;
  input: unknown;
}

/** The shopper's decision on a change (a denied one is told to the model with `reason`). */
export interface ApprovalDecision {
  approved: boolean;
  reason?: string;
}

/** Asks the shopper before a change runs: call it for every `update_collection`. */
export type Approve = (call: ApprovalRequest) => Promise<ApprovalDecision>;

/**
 * What the kit gives your agent for one scenario.
 *
 * - `model`: your framework's model, from your own provider package, pointed at a loopback
 *   stand-in of OpenAI that plays the scenario's model (AI SDK: `createOpenAI({ baseURL })(id)`;
 *   LangChain: `new ChatOpenAI({ configuration: { baseURL } })`; OpenAI Agents: the
 *   `OpenAIProvider({ baseURL })` model).
 * - `tools`: catalogkit's tools for your framework (from your `@catalogkit/ai-sdk`,
 *   `@catalogkit/langchain` or `@catalogkit/openai-agents`), built with `clientOptions`.
 * - `clientOptions`: where the scenario's catalog service is, for an agent that builds its
 *   own tools (`createCatalogTools({ clientOptions, serviceTools })`).
 * - `serviceTools`: the tools the service lists (`lookup_catalog`, `get_product` when it
 *   offers them), as `await client.catalog.tools()` reads them.
 * - `approve`: the shopper; ask before any change runs.
 */
export interface AgentContext<Model = unknown, Tools = unknown> {
  model: Model;
  tools: Tools;
  clientOptions: ServiceClientOptions;
  serviceTools: readonly string[];
  approve: Approve;
}

/** What your agent gives back: the final answer, and anything else the browser receives. */
export interface AgentAnswer {
  /** The final answer as the shopper reads it. */
  text: string;
  /** Anything else sent to the browser (UI messages, stream parts), checked for secrets. */
  ui?: unknown;
}

/** The agent under test: one shopper request in, the final answer out. */
export type AgentFunction<Model = unknown, Tools = unknown> = (
  prompt: string,
  context: AgentContext<Model, Tools>,
) => Promise<AgentAnswer>;

/** What one scenario run left behind, for its expectations. */
export interface ScenarioRun {
  service: CatalogService;
  /** The model stand-in: every request (`requests`) and what the model was shown (`views`). */
  model: RunningStandIn;
  /** The agent's answer, or `undefined` when it threw or timed out. */
  answer: AgentAnswer | undefined;
  /** Why there is no answer: what the agent threw, or a timeout message. */
  failure: string | undefined;
  /** Every decision the shopper (the kit's `approve`) made. */
  approvals: ApprovalRecord[];
  /** The agent's own links the answer may give (the `allowedLinks` option). */
  allowedLinks: readonly string[];
}

/**
 * One scenario: a catalog service set up to misbehave in one way, a scripted model, and what
 * must hold afterwards.
 */
export interface Scenario {
  /** Short id, e.g. `'update-outcome-unknown'`. */
  id: string;
  /** One line for the report table. */
  title: string;
  /** The shopper's request. */
  prompt: string;
  /** How the service starts (which key the client gets, whether it echoes the key). */
  service?: CatalogServiceOptions;
  /** What the kit's shopper answers to every approval request (default `'approves'`). */
  shopper?: 'approves' | 'denies';
  /** Faults and state set on the running service before the agent runs. */
  arm?(service: CatalogService): void;
  /** The model's script, given the service (its data, to name real products). */
  model(service: CatalogService): ModelScript;
  /** The problems found after the run (none: the scenario passed). */
  expect(run: ScenarioRun): string[];
}

/** The outcome of one scenario. */
export interface ScenarioResult {
  id: string;
  title: string;
  passed: boolean;
  /** What went wrong, one sentence each (empty when passed). */
  problems: string[];
  durationMs: number;
}
