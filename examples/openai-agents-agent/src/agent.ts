/**
 * A shopping agent on the OpenAI Agents SDK with catalogkit's tools: it searches the catalog,
 * looks up the retailers' commission rates and, once you approve, adds the best picks to a
 * collection. Copy it as is; it needs `@openai/agents`, `zod`, `@catalogkit/openai-agents` and `@catalogkit/core`.
 */
import { CatalogClient, type CatalogStore, MemoryCatalogStore } from '@catalogkit/core';
import { createCatalogTools, finalizeRunBuyLinks } from '@catalogkit/openai-agents';
import { Agent, type Model, run } from '@openai/agents';

/** What the model is told about the task. */
export const INSTRUCTIONS = [
  'You are a shopping assistant with catalog tools.',
  'Find products with search_catalog (ask for placements ["affiliate"]).',
  'For the retailers of the offers that fit the budget, call search_websites with the retailer name and the shopper’s country to get their commission rate; an offer’s website_id (printed, or inside its buy link) tells which of the websites found is its retailer.',
  'A commission of 5% or more is good. Pick the best offers: in stock, within budget, at a retailer with good commission.',
  'Read a product the shopper asks about (colours, sizes, where to buy) with get_product (its product_id), a product page they paste with lookup_catalog (urls). If the shopper asks, add the picks to their collection with update_collection (product_ids of the picks).',
  'In the answer give each pick’s title, price, retailer, commission rate and buy link, written exactly as the tool printed it (the link itself, or its [[buy:…]] reference, which the application turns into the link).',
  'When a change is not approved, do not retry it.',
].join(' ');

/** Your decision on a tool call that changes the user's data; `reason` is told to the model. */
export type Approve = (call: {
  toolName: string;
  input: unknown;
}) => Promise<{ approved: boolean; reason?: string }>;

/**
 * One store for every run in this process: each run builds its tools anew, and without a
 * shared store the guard against repeating a change of unknown outcome would hold per run.
 */
export const RUNS_STORE: CatalogStore = new MemoryCatalogStore();

/** How to run the agent. */
export interface ShoppingAgentOptions {
  /** Any Agents SDK model, or a model name; OPENAI_MODEL (gpt-4.1-mini when unset) if not given. */
  model?: Model | string;
  /** Where the catalog is; by default CATALOG_API_KEY, CATALOG_BASE_URL and CATALOG_MCP_URL. */
  clientOptions?: { apiKey?: string; baseUrl?: string; mcpUrl?: string };
  /**
   * Where the tools remember collection changes of unknown outcome, so a repeat is refused.
   * The tools are built per run: give every run one store (a Redis store across processes);
   * by default this process's {@link RUNS_STORE}.
   */
  store?: CatalogStore;
  /** The tools the catalog lists (get_product, lookup_catalog); read once per run when not given. */
  serviceTools?: readonly string[];
  /** Asked before `update_collection` runs; it runs only when approved. */
  approve: Approve;
  /** How the model reads buy links: short references (default) or the links; see the README. */
  buyLinks?: 'inline' | 'reference';
}

/** The arguments of a call waiting for approval (the SDK keeps them as JSON text). */
function inputOf(json: string | undefined): unknown {
  try {
    return JSON.parse(json ?? 'null');
  } catch {
    return json;
  }
}

/**
 * Runs the agent on one request. Returns the model's answer and every item of the run: each
 * tool result's full output for your application is `catalogToolOutputOf(item)` (the model
 * read a compact text of it).
 */
export async function runShoppingAgent(request: string, options: ShoppingAgentOptions) {
  const store = options.store ?? RUNS_STORE; // the tools' guard and the client's rate-limit pause
  const client = new CatalogClient({ ...options.clientOptions, store });
  const agent = new Agent({
    name: 'Shopping assistant',
    instructions: INSTRUCTIONS,
    // The SDK's OpenAI provider reads OPENAI_API_KEY (and OPENAI_BASE_URL).
    model: options.model ?? (process.env.OPENAI_MODEL || 'gpt-4.1-mini'),
    tools: createCatalogTools({
      client,
      serviceTools: options.serviceTools ?? (await client.catalog.tools()),
      buyLinks: options.buyLinks ?? 'reference',
    }),
  });
  let result = await run(agent, request, { maxTurns: 12 });
  // The run stops before update_collection until you decide (one update is expected).
  for (let round = 0; round < 3 && result.interruptions.length > 0; round++) {
    for (const call of result.interruptions) {
      const input = inputOf(call.arguments);
      const { approved, reason } = await options.approve({ toolName: call.name ?? '', input });
      const message = `Not approved: ${reason ?? 'no reason given'}. Do not retry.`;
      if (approved) result.state.approve(call);
      else result.state.reject(call, { message });
    }
    result = await run(agent, result.state, { maxTurns: 12 });
  }
  // References become the exact buy links; any other link or raw HTML is flagged (issues, ok).
  const { text } = finalizeRunBuyLinks(result);
  return { text, items: result.newItems };
}

export default runShoppingAgent; // what `npx @catalogkit/testing check src/agent.ts` tests
export const framework = 'openai-agents'; // there, it is given an OpenAIProvider model
