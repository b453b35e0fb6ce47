import { createCatalogTools as createAiSdkTools } from '@catalogkit/ai-sdk';
import { createCatalogTools as createLangChainTools } from '@catalogkit/langchain';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { asSchema } from 'ai';
import { describe, expect, it } from 'vitest';
import { openAiStrictProblems } from '../../../testing/src/stand-ins/schema-rules.js';

// The input schemas take left-out fields and "5" (a preprocess of the whole input), yet what
// each framework sends to providers is the exact, strict-mode schema.
const clientOptions = {
  apiKey: 'ck_test_schemas',
  baseUrl: 'http://127.0.0.1:9',
  mcpUrl: 'http://127.0.0.1:9',
};

describe('the JSON Schema each framework sends', () => {
  it('AI SDK 7 (asSchema of the tool input): strict mode, every field listed and nullable', async () => {
    const tools = createAiSdkTools({ clientOptions });
    const schemas: Record<string, { properties: Record<string, unknown> }> = {};
    for (const [name, tool] of Object.entries(tools)) {
      const schema = (await asSchema(tool.inputSchema as Parameters<typeof asSchema>[0])
        .jsonSchema) as { properties: Record<string, unknown> };
      expect(openAiStrictProblems(schema), name).toEqual([]);
      expect(Object.keys(schema.properties).length).toBeGreaterThan(3);
      schemas[name] = schema;
    }
    expect(schemas.search_catalog?.properties.limit).toMatchObject({
      anyOf: [{ type: 'integer', minimum: 1, maximum: 20 }, { type: 'null' }],
    });
  });

  it('LangChain 1 (convertToOpenAITool, as bindTools sends it): strict mode', () => {
    for (const tool of createLangChainTools({ clientOptions })) {
      const { function: fn } = convertToOpenAITool(tool);
      expect(openAiStrictProblems(fn.parameters), tool.name).toEqual([]);
      expect((fn.parameters as { required: string[] }).required.length).toBeGreaterThan(3);
    }
  });
});
