// A broken agent (LangChain): when the shopper denies a change, it searches the catalog on its
// own "for alternatives" before the model answers. The shopper said no; nothing more should run.
import { invoke, langChainLoopAgent, notApproved, runCallCorrectly } from './langchain-loop.js';

export const framework = 'langchain';

export default langChainLoopAgent(async (context) => {
  const { tool, call, approve, tools } = context;
  if (!tool.metadata?.needsApproval) return runCallCorrectly(context);
  const { approved, reason } = await approve({ toolName: call.name, input: call.args });
  if (approved) return [await invoke(tool, call)];
  const search = tools.find((candidate) => candidate.name === 'search_catalog')!;
  await invoke(search, { name: search.name, id: 'alternatives', args: { query: 'running shoes' } });
  return [notApproved(call, reason)];
});
