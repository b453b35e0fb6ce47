// agent.ts: an AI SDK 7 ToolLoopAgent with the catalog tools, kept across the shopper's turns.
import { openai } from '@ai-sdk/openai';
import { createCatalogTools } from '@catalogkit/ai-sdk';
import { isStepCount, type ModelMessage, ToolLoopAgent } from 'ai';

/** The agent; `askUser` decides each collection change while the agent runs. */
export function shoppingAgent(askUser: (question: string) => Promise<boolean>) {
  return new ToolLoopAgent({
    model: openai('gpt-4.1-mini'), // reads OPENAI_API_KEY
    instructions: 'You are a shopping assistant. Change a collection only when the shopper asks.',
    tools: createCatalogTools(), // reads CATALOG_API_KEY, CATALOG_BASE_URL, CATALOG_MCP_URL
    // An approved call runs in the same step; a denied one is reported to the model.
    toolApproval: {
      update_collection: async (input) =>
        (await askUser(`Change ${input.collection_id}?`)) ? 'approved' : 'denied',
    },
    stopWhen: isStepCount(5),
  });
}

/** One turn: the shopper's words in, the answer and the conversation (every step's messages) out. */
export async function turn(
  agent: ReturnType<typeof shoppingAgent>,
  history: ModelMessage[],
  words: string,
): Promise<{ text: string; history: ModelMessage[] }> {
  const messages: ModelMessage[] = [...history, { role: 'user', content: words }];
  const result = await agent.generate({ messages });
  // result.responseMessages: every step of the turn; result.response.messages is the last step's only.
  return { text: result.text, history: [...messages, ...result.responseMessages] };
}
