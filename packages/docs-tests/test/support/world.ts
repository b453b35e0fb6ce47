import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import {
  type ModelScript,
  type ModelView,
  type RunningStandIn,
  type ScriptedTurn,
  startOpenAiStandIn,
} from '@catalogkit/testing';

/** The emulator and an OpenAI stand-in, named in the env the flows read as a user's app would. */
export interface World {
  emulator: RunningEmulator;
  standIn: RunningStandIn;
  close(): Promise<void>;
}

/**
 * Starts both and sets `OPENAI_BASE_URL`, `OPENAI_API_KEY` and `CATALOG_*`. `@ai-sdk/openai`
 * reads its base URL when it is imported, so import a flow only after this.
 */
export async function startWorld(script: ModelScript): Promise<World> {
  const emulator = await startEmulator({ port: 0 });
  const standIn = await startOpenAiStandIn(script);
  Object.assign(process.env, {
    OPENAI_BASE_URL: standIn.baseURL,
    OPENAI_API_KEY: 'sk-stand-in',
    CATALOG_API_KEY: emulator.keys.valid,
    CATALOG_BASE_URL: emulator.baseUrl,
    CATALOG_MCP_URL: emulator.mcpUrl,
  });
  return {
    emulator,
    standIn,
    close: async () => {
      await standIn.close();
      await emulator.close();
    },
  };
}

const SEARCH = /\bsearch_catalog\b/;

/** Whether the model was shown a catalog search's result in this request. */
export function sawSearch(view: ModelView): boolean {
  const searchIds = new Set(
    view.calls.filter((call) => SEARCH.test(call.name)).map((call) => call.callId),
  );
  return view.results.some(
    (result) => searchIds.has(result.callId) && /prod_\w+/.test(result.text),
  );
}

/**
 * A shopper's model as a real one behaves: it searches when it has no search result in front
 * of it (so a continuation that dropped the search makes it search again), then saves the first
 * product it read to `col_summer`, then answers.
 */
export const shopperModel: ModelScript = (view): ScriptedTurn => {
  const search = view.results.find((result) => /\| (prod_\w+)/.test(result.text));
  if (!search) {
    return [{ name: 'search_catalog', args: { query: 'rain jacket', limit: 2 } }];
  }
  const saved = view.calls.some((call) => call.name === 'update_collection');
  if (!saved) {
    const productId = /\| (prod_\w+)/.exec(search.text)?.[1] ?? 'missing';
    const clause = { brand_ids: [], website_ids: [], category_ids: [], product_ids: [productId] };
    return [
      {
        name: 'update_collection',
        args: { collection_id: 'col_summer', add_clauses: [clause] },
      },
    ];
  }
  return `Saved ${/\| (prod_\w+)/.exec(search.text)?.[1]} to your summer collection.`;
};
