// One offline scenario of examples/langchain-agent, copied out of the repository: its
// src/agent.ts with a scripted chat model (one catalog search, then an answer) against the
// emulator named by CATALOG_*. Prints {"ok":true} when the search's ToolMessage came back.
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage, ToolMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { runShoppingAgent } from './agent.js';

class ScriptedModel extends BaseChatModel {
  _llmType(): string {
    return 'scripted';
  }

  override bindTools(): this {
    return this;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const searched = messages.some((m) => ToolMessage.isInstance(m));
    const message = searched
      ? new AIMessage({ content: 'Here are three pairs.' })
      : new AIMessage({
          content: '',
          tool_calls: [
            {
              type: 'tool_call',
              id: 'call_1',
              name: 'search_catalog',
              args: { query: 'trail running shoes', limit: 3 },
            },
          ],
        });
    return { generations: [{ text: message.text, message }] };
  }
}

const { text, steps } = await runShoppingAgent('Find trail running shoes.', {
  model: new ScriptedModel({}),
  approve: async () => ({ approved: false, reason: 'not in this scenario' }),
});
const tools = steps.filter((m) => ToolMessage.isInstance(m));
const ok =
  text.length > 0 && tools.some((m) => m.name === 'search_catalog' && m.status !== 'error');
console.log(JSON.stringify({ ok, text, tools: tools.map((m) => m.name) }));
