/**
 * A shopping agent on the Vercel AI SDK 7 with catalogkit's tools: it searches the catalog,
 * looks up the retailers' commission rates and, once you approve, adds the best picks to a
 * collection. Copy it as is; it needs `ai`, `@ai-sdk/openai`, `@catalogkit/ai-sdk` and `@catalogkit/core`.
 */
import { openai } from '@ai-sdk/openai';
import { createCatalogTools, finalizeResultBuyLinks } from '@catalogkit/ai-sdk';
import { CatalogClient, type CatalogStore, MemoryCatalogStore } from '@catalogkit/core';
import { isStepCount, type LanguageModel, type StepResult, ToolLoopAgent, type ToolSet } from 'ai';

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
  /** Any AI SDK model; {@link defaultModel} when not given. */
  model?: LanguageModel;
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
  /** Called as each step ends, e.g. to show the tool calls and results as they happen. */
  onStepEnd?: (step: StepResult<ToolSet>) => void;
  /** How the model reads buy links: short references (default) or the links; see the README. */
  buyLinks?: 'inline' | 'reference';
}

/** OpenAI's OPENAI_MODEL (gpt-4.1-mini when unset); `@ai-sdk/openai` reads OPENAI_API_KEY. */
export function defaultModel(): LanguageModel {
  return openai(process.env.OPENAI_MODEL || 'gpt-4.1-mini');
}

/**
 * Runs the agent on one request. Returns the model's answer and every step: each tool call
 * with the full result your application gets (the model reads a compact text of it).
 */
export async function runShoppingAgent(request: string, options: ShoppingAgentOptions) {
  const store = options.store ?? RUNS_STORE; // the tools' guard and the client's rate-limit pause
  const client = new CatalogClient({ ...options.clientOptions, store });
  const agent = new ToolLoopAgent({
    model: options.model ?? defaultModel(),
    instructions: INSTRUCTIONS,
    tools: createCatalogTools({
      client,
      serviceTools: options.serviceTools ?? (await client.catalog.tools()),
      buyLinks: options.buyLinks ?? 'reference',
    }),
    // Decided while the agent runs: an approved call runs in the same step; a denied one is
    // reported to the model with the reason.
    toolApproval: {
      update_collection: async (input) => {
        const { approved, reason } = await options.approve({
          toolName: 'update_collection',
          input,
        });
        return { type: approved ? 'approved' : 'denied', reason };
      },
    },
    stopWhen: isStepCount(12),
    onStepEnd: options.onStepEnd,
  });
  const result = await agent.generate({ prompt: request });
  // References become the exact buy links; any other link or raw HTML is flagged (issues, ok).
  const { text } = finalizeResultBuyLinks(result);
  return { text, steps: result.steps };
}

/** What `npx @catalogkit/testing check src/agent.ts` tests: it passes a model and the catalog. */
export default runShoppingAgent;
