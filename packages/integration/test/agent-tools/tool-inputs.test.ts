import { describe, expect, it } from 'vitest';
import { countToolInputs, reasonableInputs, sample } from '../../bench/tool-inputs.js';

// A quarter of the family `pnpm bench:inputs` counts in full, plus calls no model should get
// through (so a refusal would be seen), through the real AI SDK and LangChain validation.
describe('tool calls a reasonable model sends', () => {
  it('are accepted by the AI SDK and LangChain; unreasonable ones are refused', {
    timeout: 180_000,
  }, async () => {
    const inputs = sample(reasonableInputs(), 4);
    const unreasonable = {
      search_catalog: [{ query: '   ' }, { query: 'socks', limit: 'five' }],
      search_websites: [{ query: 'nike', country: 'Narnia' }],
      update_collection: [{ collection_id: 'col_summer' }],
    };
    const {
      inputs: total,
      aiSdk,
      langChain,
    } = await countToolInputs({
      search_catalog: [...(inputs.search_catalog ?? []), ...unreasonable.search_catalog],
      search_websites: [...(inputs.search_websites ?? []), ...unreasonable.search_websites],
      update_collection: [...(inputs.update_collection ?? []), ...unreasonable.update_collection],
    });
    expect(total).toBeGreaterThan(250);
    for (const counts of [aiSdk, langChain]) {
      expect(counts.search_catalog?.refused).toBe(2);
      expect(counts.search_websites?.refused).toBe(1);
      expect(counts.update_collection?.refused).toBe(1);
      const accepted = Object.values(counts).reduce((sum, entry) => sum + entry.accepted, 0);
      expect(accepted).toBe(total - 4);
    }
  });
});
