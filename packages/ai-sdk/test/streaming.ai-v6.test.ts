import { createOpenAI } from 'ai-sdk-openai-v3';
import { type ModelMessage, stepCountIs, streamText, type ToolSet } from 'ai-v6';
import { describeStreaming, readStream } from './support/stream-suite.js';

// @ai-sdk/openai 3.x is the line that goes with ai 6.
describeStreaming({
  major: 6,
  stream({ baseURL, tools, messages }) {
    const result = streamText({
      model: createOpenAI({ baseURL, apiKey: 'sk-stand-in' }).chat('gpt-4.1-mini'),
      tools: tools as ToolSet,
      messages: messages as ModelMessage[],
      stopWhen: stepCountIs(5),
    });
    return readStream(result.fullStream, result.response);
  },
});
