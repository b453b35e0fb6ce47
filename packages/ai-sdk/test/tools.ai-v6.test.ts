import * as aiV6 from 'ai-v6';
import { asSchema, generateText, type ModelMessage, stepCountIs, type ToolSet } from 'ai-v6';
import { MockLanguageModelV3 } from 'ai-v6/test';
import { describeCatalogTools } from './support/catalog-tools-suite.js';
import { type AiSdkHarness, approvalResponses, scriptedToolCalls } from './support/harness.js';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

// createCatalogTools is typed with the dev `ai` (7); a user's compiler resolves the declared
// `ToolSet` to their own `ai`, so the casts below stand in for that.
const harness: AiSdkHarness = {
  major: 6,
  aiModule: aiV6,
  async generate({ tools, messages, steps, maxSteps = 10 }) {
    const model: MockLanguageModelV3 = new MockLanguageModelV3({
      doGenerate: async (options) => {
        const toolCalls = scriptedToolCalls(steps, model.doGenerateCalls.length - 1, options);
        return toolCalls
          ? {
              content: toolCalls,
              finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
              usage,
              warnings: [],
            }
          : {
              content: [{ type: 'text', text: 'Done.' }],
              finishReason: { unified: 'stop', raw: 'stop' },
              usage,
              warnings: [],
            };
      },
    });
    const result = await generateText({
      model,
      tools: tools as ToolSet,
      messages: messages as ModelMessage[],
      stopWhen: stepCountIs(maxSteps),
    });
    return { result, calls: model.doGenerateCalls };
  },
  inputJsonSchema: async (tool) => asSchema((tool as ToolSet[string]).inputSchema).jsonSchema,
  approvalMessages: approvalResponses,
};

describeCatalogTools(harness);
