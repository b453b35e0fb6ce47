import { startOpenAiStandIn } from '@catalogkit/example-shared/testing';
import { ChatOpenAI } from '@langchain/openai';
import { describe, expect, it } from 'vitest';
import { chooseChatModel } from '../src/model.js';
import { ScriptedShopperChatModel } from '../src/scripted-chat-model.js';

describe('chooseChatModel', () => {
  it('uses the scripted model when no OPENAI_API_KEY is set', () => {
    const chosen = chooseChatModel({ OPENAI_MODEL: 'gpt-4o' });
    expect(chosen.description.scripted).toBe(true);
    expect(chosen.model).toBeInstanceOf(ScriptedShopperChatModel);
  });

  it('uses ChatOpenAI with OPENAI_API_KEY, the model from OPENAI_MODEL', () => {
    const chosen = chooseChatModel({ OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'gpt-4o' });
    expect(chosen.description).toEqual({ scripted: false, label: 'openai gpt-4o' });
    expect(chosen.model).toBeInstanceOf(ChatOpenAI);
    expect((chosen.model as ChatOpenAI).model).toBe('gpt-4o');
  });

  it('sends the real model’s calls to OPENAI_BASE_URL with the OpenAI key', async () => {
    const openai = await startOpenAiStandIn();
    try {
      const { model } = chooseChatModel({
        OPENAI_API_KEY: 'sk-test',
        OPENAI_MODEL: 'gpt-4o',
        OPENAI_BASE_URL: openai.baseUrl,
      });
      await expect(model.invoke('hi')).rejects.toThrow();
      expect(openai.received.length).toBeGreaterThan(0);
      expect(openai.received[0]).toMatchObject({
        method: 'POST',
        headers: { authorization: 'Bearer sk-test' },
      });
      expect(JSON.parse(openai.received[0]?.body ?? '{}')).toMatchObject({ model: 'gpt-4o' });
    } finally {
      await openai.close();
    }
  });
});
