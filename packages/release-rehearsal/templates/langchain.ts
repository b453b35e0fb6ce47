// A LangChain 1.x application: the catalog tools in an agent from createAgent, with a chat
// model that plays a script (one search_catalog call, then an answer).
import { createCatalogTools } from '@catalogkit/langchain';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage, ToolMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { createAgent } from 'langchain';
import { checkSearch } from './check.js';

class ScriptedChatModel extends BaseChatModel {
  _llmType(): string {
    return 'scripted';
  }

  override bindTools(): this {
    return this;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const searched = messages.some((message) => ToolMessage.isInstance(message));
    const message = searched
      ? new AIMessage('Done.')
      : new AIMessage({
          content: '',
          tool_calls: [
            {
              id: 'call_1',
              name: 'search_catalog',
              args: { query: 'trail running shoes', limit: 2, cursor: null, placements: null },
            },
          ],
        });
    return { generations: [{ text: String(message.content), message }] };
  }
}

const agent = createAgent({
  model: new ScriptedChatModel({}),
  tools: createCatalogTools({ include: ['search_catalog'] }), // CATALOG_* variables
});
const state = await agent.invoke({ messages: [{ role: 'user', content: 'Find shoes.' }] });
const toolMessage = state.messages.find((message) => ToolMessage.isInstance(message));
if (!toolMessage || !ToolMessage.isInstance(toolMessage)) throw new Error('no tool message');
// The model reads the content; the application gets the full result as the artifact.
const productId = checkSearch(toolMessage.artifact, String(toolMessage.content), 2);
const last = state.messages.at(-1);
if (last?.text !== 'Done.') throw new Error(`the agent did not finish: ${last?.text}`);
console.log(JSON.stringify({ ok: true, productId }));
