import {
  type CatalogTool,
  type CatalogToolsOptions,
  createCatalogToolList,
} from '@catalogkit/core';
import { type Tool, type ToolSet, tool } from 'ai';
import { CatalogToolCallError } from './tool-call-error.js';

/** Options of {@link createCatalogTools}: the shared catalog tool options plus AI SDK settings. */
export interface AiSdkCatalogToolsOptions extends CatalogToolsOptions {
  /**
   * Mark `update_collection` with `needsApproval`, so the AI SDK stops for the user's
   * approval before it changes their data. Default `true`. In AI SDK 7, the `toolApproval`
   * option of `generateText`/`streamText` takes precedence over it.
   */
  needsApproval?: boolean;
  /**
   * Ask providers for strict input generation (OpenAI strict mode). The input schemas are
   * built to be accepted in strict mode. Default `true`.
   */
  strict?: boolean;
}

interface AdapterSettings {
  needsApproval: boolean;
  strict: boolean;
}

// The three tools differ in input and output types, and a ToolSet is keyed by runtime names,
// so the adapter works on the erased view (each execute validates its own input).
function toAiSdkTool(catalogTool: CatalogTool<unknown, unknown>, settings: AdapterSettings): Tool {
  return tool<unknown, unknown, Record<string, never>>({
    description: catalogTool.description,
    inputSchema: catalogTool.inputSchema,
    strict: settings.strict,
    ...(catalogTool.needsApproval && settings.needsApproval ? { needsApproval: true } : {}),
    async execute(input, { abortSignal }) {
      try {
        return await catalogTool.execute(input, { signal: abortSignal });
      } catch (error) {
        const text = catalogTool.errorToModelOutput(error);
        // Errors the model cannot act on (bad configuration, cancellation, bugs) stay as they are.
        if (text === undefined) throw error;
        throw new CatalogToolCallError(catalogTool.name, text, error);
      }
    },
    // The application keeps the full result; the model reads the compact view.
    toModelOutput: ({ output }) => ({ type: 'text', value: catalogTool.toModelOutput(output) }),
  });
}

/**
 * Catalog tools for the Vercel AI SDK: `search_catalog`, `search_websites` and
 * `update_collection` (which asks for approval), keyed by name.
 *
 * Each tool's `execute` returns the full parsed result to the application (in
 * `steps[].toolResults`), while the model reads a compact view (`toModelOutput`). Failures
 * the model can act on reach it as short text; bad options throw a `ConfigurationError`.
 *
 * @example
 * const tools = createCatalogTools({ clientOptions: { apiKey: process.env.CATALOG_API_KEY } });
 * const result = await generateText({ model, tools, prompt: 'Find trail running shoes' });
 */
export function createCatalogTools(options: AiSdkCatalogToolsOptions = {}): ToolSet {
  const { needsApproval = true, strict = true, ...shared } = options;
  const settings = { needsApproval, strict };
  const tools: ToolSet = {};
  for (const catalogTool of createCatalogToolList(shared)) {
    tools[catalogTool.name] = toAiSdkTool(catalogTool, settings);
  }
  return tools;
}
