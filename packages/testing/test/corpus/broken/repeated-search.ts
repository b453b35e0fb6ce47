// A broken agent (LangChain): it runs every search twice, "so the prices are fresh", and shows
// the second result. The service answers the same search twice; the model gains nothing.
import { langChainLoopAgent, runCallCorrectly } from './langchain-loop.js';

export const framework = 'langchain';

export default langChainLoopAgent(async (context) => {
  if (context.call.name.startsWith('search_')) await runCallCorrectly(context);
  return runCallCorrectly(context);
});
