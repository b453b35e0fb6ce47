/**
 * `pnpm --filter @catalogkit/openai-agents demo`: an Agents SDK shopper against the emulator,
 * offline. The tools, HTTP calls, approval and results are real; the model is a scripted
 * stand-in unless OPENAI_API_KEY is set (then it is gpt-4.1-mini).
 */

import type { UpdateCollectionOutput } from '@catalogkit/core';
import { startEmulator } from '@catalogkit/emulator';
import { Agent, run, setTracingDisabled } from '@openai/agents';
import { catalogToolOutputOf, createCatalogTools, finalizeRunBuyLinks } from '../src/index.js';
import { ScriptedModel } from './scripted-model.js';

const emulator = await startEmulator({ port: 0 });
const online = Boolean(process.env.OPENAI_API_KEY);
setTracingDisabled(!online);

// A shopper that searches, then adds the first product it read to the Summer collection.
const scripted = new ScriptedModel([
  () => [
    {
      name: 'search_catalog',
      input: { query: 'trail running shoes', limit: 2, cursor: null, placements: null },
    },
  ],
  (seen) => {
    const productId = /\| (prod_\w+)/.exec(seen.get('call_0_0') ?? '')?.[1] ?? 'missing';
    const clause = { brand_ids: [], website_ids: [], category_ids: [], product_ids: [productId] };
    const change = {
      name: null,
      description: null,
      replace_clauses: null,
      remove_clause_ids: null,
    };
    const input = { collection_id: 'col_summer', add_clauses: [clause], ...change };
    return [{ name: 'update_collection', input }];
  },
]);

const agent = new Agent({
  name: 'Shopper',
  // The tools' description tells the model to write each offer's buy reference where the link goes.
  instructions: 'Help the user shop.',
  model: online ? 'gpt-4.1-mini' : scripted,
  tools: createCatalogTools({
    clientOptions: {
      apiKey: emulator.keys.valid,
      baseUrl: emulator.baseUrl,
      mcpUrl: emulator.mcpUrl,
    },
    defaults: { placements: ['affiliate'] },
  }),
});

try {
  let result = await run(
    agent,
    'Find trail running shoes and add the best one to my Summer collection (col_summer).',
  );
  while (result.interruptions.length > 0) {
    for (const approval of result.interruptions) {
      // A real application asks the user here; the demo approves.
      process.stdout.write(
        `? ${approval.name} needs approval: ${approval.arguments}\n  approved\n`,
      );
      result.state.approve(approval);
    }
    result = await run(agent, result.state);
  }
  for (const item of result.newItems) {
    const output = catalogToolOutputOf<UpdateCollectionOutput>(item);
    if (
      output &&
      item.rawItem.type === 'function_call_result' &&
      item.rawItem.name === 'update_collection'
    ) {
      // The application's view: the full result ({ request, response }), not the model's text.
      process.stdout.write(`← update_collection: ${output.response.clauses?.length} clauses now\n`);
    }
  }
  // References become the exact buy links before the shopper sees the answer.
  process.stdout.write(`\nAnswer: ${finalizeRunBuyLinks(result).text}\n`);
  const summer = emulator.state.collections.get('col_summer');
  process.stdout.write(`Collection in the emulator: ${JSON.stringify(summer?.clauses.at(-1))}\n`);
} finally {
  await emulator.close();
}
