import { createAnthropic } from 'ai-sdk-anthropic-v2';
import { createGoogleGenerativeAI } from 'ai-sdk-google-v2';
import { createOpenAICompatible } from 'ai-sdk-openai-compatible-v1';
import { createOpenAI } from 'ai-sdk-openai-v2';
import { generateText, type LanguageModel, stepCountIs, type ToolSet } from 'ai-v5';
import { describeProviders } from './support/providers-suite.js';

// The provider lines that go with ai 5: openai, anthropic and google 2.x, openai-compatible 1.x.
describeProviders({
  major: 5,
  versions: { openai: '2.0.131', anthropic: '2.0.112', google: '2.0.108', compatible: '1.0.61' },
  models: {
    openai: (baseURL) => createOpenAI({ baseURL, apiKey: 'sk-stand-in' }).chat('gpt-4.1-mini'),
    anthropic: (baseURL) => createAnthropic({ baseURL, apiKey: 'sk-ant' })('claude-sonnet-4-5'),
    google: (baseURL) => createGoogleGenerativeAI({ baseURL, apiKey: 'g' })('gemini-2.5-flash'),
    compatible: (baseURL) =>
      createOpenAICompatible({ name: 'local', baseURL, apiKey: 'k' }).chatModel('qwen3-32b'),
  },
  // ai 5 has no per-tool strict: OpenAI strict mode is the provider's own option.
  generate: ({ model, tools, prompt }) =>
    generateText({
      model: model as LanguageModel,
      tools: tools as ToolSet,
      prompt,
      stopWhen: stepCountIs(3),
      providerOptions: { openai: { strictJsonSchema: true } },
    }),
});
