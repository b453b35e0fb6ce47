import { startEmulator } from '@catalogkit/emulator';
import * as aiV7 from 'ai';
import { asSchema, generateText, type ModelMessage, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createCatalogTools } from '../src/index.js';
import { describeCatalogTools } from './support/catalog-tools-suite.js';
import {
  type AiSdkHarness,
  approvalResponses,
  type GenerateOutcome,
  type GenerateRun,
  scriptedToolCalls,
  toolOutputsSeen,
  v3GenerateResult,
} from './support/harness.js';

type ToolApproval = Parameters<typeof generateText>[0]['toolApproval'];

async function generate(
  { tools, messages, steps, maxSteps = 10 }: GenerateRun,
  toolApproval?: ToolApproval,
): Promise<GenerateOutcome> {
  const model: MockLanguageModelV3 = new MockLanguageModelV3({
    doGenerate: async (options) =>
      v3GenerateResult(scriptedToolCalls(steps, model.doGenerateCalls.length - 1, options)),
  });
  const result = await generateText({
    model,
    tools,
    messages: messages as ModelMessage[],
    stopWhen: stepCountIs(maxSteps),
    toolApproval,
  });
  return { result, calls: model.doGenerateCalls };
}

const harness: AiSdkHarness = {
  major: 7,
  aiModule: aiV7,
  generate: (run) => generate(run),
  inputJsonSchema: async (tool) => asSchema(tool.inputSchema).jsonSchema,
  approvalMessages: approvalResponses,
};

describeCatalogTools(harness);

describe('createCatalogTools with the toolApproval option of ai 7', () => {
  it('runs update_collection in the same step when toolApproval approves it', async () => {
    const emulator = await startEmulator({ port: 0 });
    try {
      const tools = createCatalogTools({
        clientOptions: {
          apiKey: emulator.keys.valid,
          baseUrl: emulator.baseUrl,
          mcpUrl: emulator.mcpUrl,
        },
      });
      const input = {
        collection_id: 'col_summer',
        name: 'Approved',
        description: null,
        add_clauses: null,
        replace_clauses: null,
        remove_clause_ids: null,
      };
      const run = {
        tools,
        messages: [{ role: 'user', content: 'rename' }],
        steps: [() => [{ toolName: 'update_collection', input }]],
      };
      const { result, calls } = await generate(run, { update_collection: 'approved' });
      expect(result.steps[0]?.toolResults).toHaveLength(1);
      expect(toolOutputsSeen(calls[1]).get('call_0_0')?.value).toContain('Approved');
      expect(emulator.state.collections.get('col_summer')?.name).toBe('Approved');
    } finally {
      await emulator.close();
    }
  });
});
