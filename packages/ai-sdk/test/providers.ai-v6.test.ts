import { createAnthropic } from 'ai-sdk-anthropic-v3';
import { createGoogleGenerativeAI } from 'ai-sdk-google-v3';
import { createOpenAICompatible } from 'ai-sdk-openai-compatible-v2';
import { createOpenAI } from 'ai-sdk-openai-v3';
import { generateText, type LanguageModel, stepCountIs, type ToolSet } from 'ai-v6';
import { describeProviders } from './support/providers-suite.js';

// The provider lines that go with ai 6: openai, anthropic and google 3.x, openai-compatible 2.x.
describeProviders({
  major: 6,
  versions: { openai: '3.0.141', anthropic: '3.0.139', google: '3.0.141', compatible: '2.0.91' },
  models: {
    openai: (baseURL) => createOpenAI({ baseURL, apiKey: 'sk-stand-in' }).chat('gpt-4.1-mini'),
    anthropic: (baseURL) => createAnthropic({ baseURL, apiKey: 'sk-ant' })('claude-sonnet-4-5'),
    google: (baseURL) => createGoogleGenerativeAI({ baseURL, apiKey: 'g' })('gemini-2.5-flash'),
    compatible: (baseURL) =>
      createOpenAICompatible({ name: 'local', baseURL, apiKey: 'k' }).chatModel('qwen3-32b'),
  },
  generate: ({ model, tools, prompt }) =>
    generateText({
      model: model as LanguageModel,
      tools: tools as ToolSet,
      prompt,
      stopWhen: stepCountIs(3),
    }),
});
