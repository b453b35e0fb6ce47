import type { ShopperTranscript } from '../src/shopper/transcript.js';

/**
 * The conversation both scripted models' tests write in their own framework's messages: a
 * request, a catalog search, a failed retailer lookup and a denied update. Both frameworks
 * must read it as this same transcript, so the shopper decides alike on either.
 */
export const SAMPLE_TRANSCRIPT: ShopperTranscript = {
  request: 'find shoes',
  observations: [
    {
      toolName: 'search_catalog',
      input: { query: 'shoes' },
      text: '2 products',
      outcome: 'result',
    },
    {
      toolName: 'search_websites',
      input: { query: 'Fell & Trail' },
      text: 'Error: Rate limited',
      outcome: 'error',
    },
    {
      toolName: 'update_collection',
      input: { collection_id: 'col_a' },
      text: 'Not approved by you: no',
      outcome: 'denied',
    },
  ],
};
