import * as aiV5 from 'ai-v5';
import { asSchema, generateText, type ModelMessage, stepCountIs, type ToolSet } from 'ai-v5';
import { MockLanguageModelV2 } from 'ai-v5/test';
import { describeCatalogTools } from './support/catalog-tools-suite.js';
import { type AiSdkHarness, scriptedToolCalls } from './support/harness.js';

const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };

// createCatalogTools is typed with the dev `ai` (7); a user's compiler resolves the declared
// `ToolSet` to their own `ai`, so the casts below stand in for that.
const harness: AiSdkHarness = {
  major: 5,
  aiModule: aiV5,
  async generate({ tools, messages, steps, maxSteps = 10 }) {
    const model: MockLanguageModelV2 = new MockLanguageModelV2({
      doGenerate: async (options) => {
        const toolCalls = scriptedToolCalls(steps, model.doGenerateCalls.length - 1, options);
        return toolCalls
          ? { content: toolCalls, finishReason: 'tool-calls', usage, warnings: [] }
          : {
              content: [{ type: 'text', text: 'Done.' }],
              finishReason: 'stop',
              usage,
              warnings: [],
            };
      },
    });
    const result = await generateText({
      model,
      tools: tools as unknown as ToolSet,
      messages: messages as ModelMessage[],
      stopWhen: stepCountIs(maxSteps),
    });
    return { result, calls: model.doGenerateCalls };
  },
  inputJsonSchema: async (tool) => asSchema((tool as ToolSet[string]).inputSchema).jsonSchema,
  // AI SDK 5 has no tool approval: update_collection comes without execute, so the
  // application runs the call itself once the user agrees, and records a tool result.
  async approvalMessages({ result }, approvedTools) {
    const content = [];
    for (const call of result.toolCalls) {
      const tool = (approvedTools as ToolSet)[call.toolName];
      const output = await tool?.execute?.(call.input, {
        toolCallId: call.toolCallId,
        messages: [],
      });
      const modelOutput = tool?.toModelOutput?.(output);
      content.push({
        type: 'tool-result',
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        output: modelOutput,
      });
    }
    return [{ role: 'tool', content }];
  },
};

describeCatalogTools(harness);
