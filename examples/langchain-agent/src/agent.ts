/**
 * A shopping agent on LangChain.js with catalogkit's tools: it searches the catalog, reads products, looks up the retailers'
 * commission and, once you approve, adds the best picks to a collection. Copy it as is; it needs langchain,
 * @langchain/langgraph, @langchain/openai, @catalogkit/langchain, @catalogkit/core.
 */
import { CatalogClient, type CatalogStore, MemoryCatalogStore } from '@catalogkit/core';
import { createCatalogTools, finalizeAIMessageBuyLinks } from '@catalogkit/langchain';
import type { Callbacks } from '@langchain/core/callbacks/manager';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { Command, MemorySaver } from '@langchain/langgraph';
import { ChatOpenAI } from '@langchain/openai';
import type { HITLRequest, HITLResponse } from 'langchain';
import { createAgent, humanInTheLoopMiddleware } from 'langchain';

/** What the model is told about the task. */
export const INSTRUCTIONS = [
  'You are a shopping assistant with catalog tools. Find products with search_catalog (ask for placements ["affiliate"]).',
  'For the retailers of the offers that fit the budget, call search_websites with the retailer name and the shopper’s country to get their commission rate; an offer’s website_id (printed, or inside its buy link) tells which of the websites found is its retailer. A commission of 5% or more is good. Pick the best offers: in stock, within budget, at a retailer with good commission.',
  'Read a product the shopper asks about (colours, sizes, where to buy) with get_product (its product_id), a product page they paste with lookup_catalog (urls). If the shopper asks, add the picks to their collection with update_collection (product_ids of the picks).',
  'In the answer give each pick’s title, price, retailer, commission rate and buy link, written exactly as the tool printed it (the link itself, or its [[buy:…]] reference, which the application turns into the link). When a change is not approved, do not retry it.',
].join(' ');

/** Your decision on a tool call that changes the user's data; `reason` is told to the model. */
export type Approve = (call: { toolName: string; input: unknown }) => Promise<Decision>;
type Decision = { approved: boolean; reason?: string };

/** One store for every run in this process (tools are built per run; the guard needs one). */
export const RUNS_STORE: CatalogStore = new MemoryCatalogStore();

/** How to run the agent. */
export interface ShoppingAgentOptions {
  /** Any chat model that supports tool calling; {@link defaultModel} by default. */
  model?: BaseChatModel;
  /** Where the catalog is; by default CATALOG_API_KEY, CATALOG_BASE_URL and CATALOG_MCP_URL. */
  clientOptions?: { apiKey?: string; baseUrl?: string; mcpUrl?: string };
  /** Where changes of unknown outcome are remembered (Redis across processes); {@link RUNS_STORE}. */
  store?: CatalogStore;
  /** The tools the catalog lists (get_product, lookup_catalog); read once per run when not given. */
  serviceTools?: readonly string[];
  /** Asked before `update_collection` runs; it runs only when approved. */
  approve: Approve;
  /** LangChain callback handlers, e.g. to show each tool call as it ends. */
  callbacks?: Callbacks;
}

/** OpenAI's OPENAI_MODEL (gpt-4.1-mini when unset); ChatOpenAI reads OPENAI_API_KEY. */
export function defaultModel(): BaseChatModel {
  return new ChatOpenAI({ model: process.env.OPENAI_MODEL || 'gpt-4.1-mini' });
}

/** Asks `approve` about each tool call the run stopped at; the answers resume the run. */
async function decide({ actionRequests }: HITLRequest, approve: Approve): Promise<HITLResponse> {
  const decisions: HITLResponse['decisions'] = [];
  for (const { name, args } of actionRequests) {
    const { approved, reason } = await approve({ toolName: name, input: args });
    const message = `Not approved: ${reason ?? 'no reason given'}. Do not retry.`;
    decisions.push(approved ? { type: 'approve' } : { type: 'reject', message });
  }
  return { decisions };
}

/**
 * Runs the agent on one request: the answer, and the run's messages (each ToolMessage has the
 * text the model read as `content` and the full result as `artifact`).
 */
export async function runShoppingAgent(request: string, options: ShoppingAgentOptions) {
  const store = options.store ?? RUNS_STORE; // the tools' guard and the client's rate-limit pause
  const client = new CatalogClient({ ...options.clientOptions, store });
  const serviceTools = options.serviceTools ?? (await client.catalog.tools());
  const agent = createAgent({
    model: options.model ?? defaultModel(),
    systemPrompt: INSTRUCTIONS,
    tools: createCatalogTools({ client, serviceTools }),
    // The run stops before update_collection until you decide; stopping needs a checkpointer.
    middleware: [
      humanInTheLoopMiddleware({
        interruptOn: { update_collection: { allowedDecisions: ['approve', 'reject'] } },
      }),
    ],
    checkpointer: new MemorySaver(),
  });
  const config = {
    configurable: { thread_id: crypto.randomUUID() },
    recursionLimit: 40,
    callbacks: options.callbacks,
  };
  let state = await agent.invoke({ messages: [{ role: 'user', content: request }] }, config);
  // Each stop before update_collection resumes with your decisions (one update is expected).
  for (let round = 0; round < 3 && state.__interrupt__?.[0]; round++) {
    const resume = await decide(state.__interrupt__[0].value as HITLRequest, options.approve);
    state = await agent.invoke(new Command({ resume }), config);
  }
  // References become the exact buy links; any other link or raw HTML is flagged (issues, ok).
  return { text: finalizeAIMessageBuyLinks(state.messages).text, steps: state.messages };
}

export default runShoppingAgent; // what `npx @catalogkit/testing check src/agent.ts` tests
export const framework = 'langchain'; // there, it is given a ChatOpenAI and the catalog
