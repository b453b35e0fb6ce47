import { createOpenAI } from '@ai-sdk/openai';
import { type ModelMessage, stepCountIs, streamText } from 'ai';
import { describeStreaming, readStream } from './support/stream-suite.js';

describeStreaming({
  major: 7,
  stream({ baseURL, tools, messages }) {
    const result = streamText({
      model: createOpenAI({ baseURL, apiKey: 'sk-stand-in' }).chat('gpt-4.1-mini'),
      tools,
      messages: messages as ModelMessage[],
      stopWhen: stepCountIs(5),
    });
    return readStream(result.fullStream, result.response);
  },
});
