import { startOpenAiStandIn } from '@catalogkit/example-shared/testing';
import { generateText } from 'ai';
import { describe, expect, it } from 'vitest';
import { chooseModel } from '../src/model.js';

describe('chooseModel', () => {
  it('uses the scripted model when no OPENAI_API_KEY is set', () => {
    const chosen = chooseModel({ OPENAI_MODEL: 'gpt-4o' });
    expect(chosen.description.scripted).toBe(true);
    expect(chosen.model).toMatchObject({
      provider: 'catalogkit-example',
      modelId: 'scripted-shopper',
    });
  });

  it('uses OpenAI with OPENAI_API_KEY, the model from OPENAI_MODEL', () => {
    const chosen = chooseModel({ OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'gpt-4o' });
    expect(chosen.description).toEqual({ scripted: false, label: 'openai gpt-4o' });
    expect(chosen.model).toMatchObject({
      modelId: 'gpt-4o',
      provider: expect.stringMatching(/^openai/),
    });
  });

  it('sends the real model’s calls to OPENAI_BASE_URL with the OpenAI key', async () => {
    const openai = await startOpenAiStandIn();
    try {
      const { model } = chooseModel({
        OPENAI_API_KEY: 'sk-test',
        OPENAI_MODEL: 'gpt-4o',
        OPENAI_BASE_URL: openai.baseUrl,
      });
      await expect(generateText({ model, prompt: 'hi', maxRetries: 0 })).rejects.toThrow();
      expect(openai.received).toHaveLength(1);
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
