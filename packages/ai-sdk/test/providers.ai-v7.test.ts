import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, type LanguageModel, stepCountIs } from 'ai';
import { describeProviders } from './support/providers-suite.js';

describeProviders({
  major: 7,
  versions: { openai: '4.0.118', anthropic: '4.0.105', google: '4.0.121', compatible: '3.0.92' },
  models: {
    openai: (baseURL) => createOpenAI({ baseURL, apiKey: 'sk-stand-in' }).chat('gpt-4.1-mini'),
    anthropic: (baseURL) => createAnthropic({ baseURL, apiKey: 'sk-ant' })('claude-sonnet-4-5'),
    google: (baseURL) => createGoogleGenerativeAI({ baseURL, apiKey: 'g' })('gemini-2.5-flash'),
    compatible: (baseURL) =>
      createOpenAICompatible({ name: 'local', baseURL, apiKey: 'k' }).chatModel('qwen3-32b'),
  },
  // Each tool carries `strict: true` (the adapter's default), which ai 7 passes on.
  generate: ({ model, tools, prompt }) =>
    generateText({ model: model as LanguageModel, tools, prompt, stopWhen: stepCountIs(3) }),
});
