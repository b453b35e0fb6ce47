// ai 6.0.0, the lowest 6.x: it lacks exports that came in later 6.0.x releases, so the adapter
// must tell versions apart by behaviour.
import * as aiV60 from 'ai-v6-0';
import { asSchema, generateText, type ModelMessage, stepCountIs, type ToolSet } from 'ai-v6-0';
import { MockLanguageModelV3 } from 'ai-v6-0/test';
import { describeCatalogTools } from './support/catalog-tools-suite.js';
import {
  type AiSdkHarness,
  approvalResponses,
  scriptedToolCalls,
  v3GenerateResult,
} from './support/harness.js';

// createCatalogTools is typed with the dev `ai` (7); a user's compiler resolves the declared
// `ToolSet` to their own `ai`, so the casts below stand in for that.
const harness: AiSdkHarness = {
  major: 6,
  aiModule: aiV60,
  async generate({ tools, messages, steps, maxSteps = 10 }) {
    const model: MockLanguageModelV3 = new MockLanguageModelV3({
      doGenerate: async (options) =>
        v3GenerateResult(scriptedToolCalls(steps, model.doGenerateCalls.length - 1, options)),
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
