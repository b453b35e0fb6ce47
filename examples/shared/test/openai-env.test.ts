import { describe, expect, it } from 'vitest';
import { DEFAULT_OPENAI_MODEL, readOpenAiSettings } from '../src/openai-env.js';

describe('readOpenAiSettings', () => {
  it('means the scripted model when OPENAI_API_KEY is unset or blank (as in .env.example)', () => {
    expect(readOpenAiSettings({ OPENAI_MODEL: 'gpt-4o' })).toBeUndefined();
    expect(readOpenAiSettings({ OPENAI_API_KEY: '  ', OPENAI_MODEL: 'gpt-4o' })).toBeUndefined();
  });

  it('reads the key, the model from OPENAI_MODEL and the endpoint from OPENAI_BASE_URL, trimmed', () => {
    expect(
      readOpenAiSettings({
        OPENAI_API_KEY: ' sk-test ',
        OPENAI_MODEL: ' gpt-4o ',
        OPENAI_BASE_URL: ' http://127.0.0.1:9/v1 ',
      }),
    ).toEqual({
      apiKey: 'sk-test',
      modelId: 'gpt-4o',
      baseURL: 'http://127.0.0.1:9/v1',
      description: { scripted: false, label: 'openai gpt-4o' },
    });
  });

  it('falls back to the default model, and to OpenAI itself when OPENAI_BASE_URL is blank', () => {
    expect(
      readOpenAiSettings({ OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: '', OPENAI_BASE_URL: '' }),
    ).toEqual({
      apiKey: 'sk-test',
      modelId: DEFAULT_OPENAI_MODEL,
      description: { scripted: false, label: `openai ${DEFAULT_OPENAI_MODEL}` },
    });
  });

  it('does not put the OpenAI key in the description', () => {
    const settings = readOpenAiSettings({ OPENAI_API_KEY: 'sk-secret-1' });
    expect(JSON.stringify(settings?.description)).not.toContain('sk-secret-1');
  });
});
