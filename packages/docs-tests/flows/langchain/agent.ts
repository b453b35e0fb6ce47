// agent.ts: a LangChain agent whose collection changes wait for the shopper's decision.
import { createCatalogTools } from '@catalogkit/langchain';
import { Command, MemorySaver } from '@langchain/langgraph';
import { ChatOpenAI } from '@langchain/openai';
import {
  createAgent,
  type HITLRequest,
  type HITLResponse,
  humanInTheLoopMiddleware,
} from 'langchain';

const agent = createAgent({
  model: new ChatOpenAI({ model: 'gpt-4.1-mini' }), // reads OPENAI_API_KEY
  tools: createCatalogTools(), // reads CATALOG_API_KEY, CATALOG_BASE_URL, CATALOG_MCP_URL
  middleware: [
    humanInTheLoopMiddleware({
      interruptOn: { update_collection: { allowedDecisions: ['approve', 'reject'] } },
    }),
  ],
  checkpointer: new MemorySaver(), // stopping for a decision needs one
});

/** Runs one request in a conversation (`threadId`); asks the shopper before each change. */
export async function run(
  request: string,
  threadId: string,
  askUser: (question: string) => Promise<boolean>,
) {
  const config = { configurable: { thread_id: threadId } };
  let state = await agent.invoke({ messages: [{ role: 'user', content: request }] }, config);
  // Each stop resumes with the shopper's decisions (a few rounds at most).
  for (let round = 0; round < 5 && state.__interrupt__?.[0]; round++) {
    const { actionRequests } = state.__interrupt__[0].value as HITLRequest;
    const decisions: HITLResponse['decisions'] = [];
    for (const { name } of actionRequests) {
      const approved = await askUser(`Run ${name}?`);
      decisions.push(
        approved
          ? { type: 'approve' }
          : { type: 'reject', message: 'The shopper said no. Do not retry.' },
      );
    }
    state = await agent.invoke(new Command({ resume: { decisions } }), config);
  }
  return state.messages;
}
