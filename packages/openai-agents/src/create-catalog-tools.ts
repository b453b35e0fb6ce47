import {
  type CatalogTool,
  type CatalogToolsOptions,
  createCatalogToolList,
  type SearchCatalogOutput,
  type SearchWebsitesOutput,
  type UpdateCollectionOutput,
} from '@catalogkit/core';
import { type FunctionTool, type RunItem, type ToolInputParameters, tool } from '@openai/agents';
import { z } from 'zod/v4';

/** Options of {@link createCatalogTools}: the shared catalog tool options plus Agents SDK settings. */
export interface OpenAIAgentsCatalogToolsOptions extends CatalogToolsOptions {
  /**
   * Mark `update_collection` with `needsApproval`, so the run stops with an interruption for
   * the user's approval before it changes their data. Default `true`.
   */
  needsApproval?: boolean;
}

/** The full result of a catalog tool call, as the application gets it. */
export type CatalogToolOutput = SearchCatalogOutput | SearchWebsitesOutput | UpdateCollectionOutput;

const RESULT_KEY = 'catalogkit';

/** The SDK's strict JSON Schema parameters (its type is not exported by name). */
type StrictJsonParameters = Extract<ToolInputParameters, { additionalProperties: false }>;

/** A catalog tool as an Agents SDK function tool (any agent context). */
export type CatalogFunctionTool = FunctionTool<unknown, StrictJsonParameters, string>;

/**
 * The full result of a catalog tool call from a run's `tool_call_output_item` (the model
 * read the compact text in `item.output`), or `undefined` for other items and failed calls.
 *
 * @example
 * const results = result.newItems.map(catalogToolOutputOf).filter((output) => output !== undefined);
 */
export function catalogToolOutputOf(item: RunItem): CatalogToolOutput | undefined {
  if (item.type !== 'tool_call_output_item') return undefined;
  return item.customData?.[RESULT_KEY] as CatalogToolOutput | undefined;
}

/**
 * The input schema as plain JSON Schema (strict: every field required, no extra fields):
 * the SDK then only parses the model's JSON, and the tool's own validation names each bad
 * field in the error text the model reads.
 */
function parametersOf(catalogTool: CatalogTool<unknown, unknown>): StrictJsonParameters {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(catalogTool.inputSchema);
  return schema as StrictJsonParameters;
}

function toAgentsTool(
  catalogTool: CatalogTool<unknown, unknown>,
  needsApproval: boolean,
): CatalogFunctionTool {
  // The SDK gives the model what `execute` returns; the full result waits here, by call id,
  // until it is attached to the run item as custom data.
  const pending = new Map<string, unknown>();
  return tool({
    name: catalogTool.name,
    description: catalogTool.description,
    parameters: parametersOf(catalogTool),
    strict: true,
    needsApproval: catalogTool.needsApproval && needsApproval,
    async execute(input, _context, details) {
      const output = await catalogTool.execute(input, { signal: details?.signal });
      const callId = details?.toolCall?.callId;
      if (callId !== undefined) pending.set(callId, output);
      return catalogTool.toModelOutput(output);
    },
    errorFunction(_context, error) {
      const text = catalogTool.errorToModelOutput(error);
      // Errors the model cannot act on (bad configuration, cancellation, bugs) end the run.
      if (text === undefined) throw error;
      return text;
    },
    customDataExtractor({ toolCall }) {
      const output = pending.get(toolCall.callId);
      pending.delete(toolCall.callId);
      return output === undefined ? undefined : { [RESULT_KEY]: output };
    },
  });
}

/**
 * Catalog tools for the OpenAI Agents SDK: `search_catalog`, `search_websites` and
 * `update_collection` (which needs approval), as function tools for an `Agent`.
 *
 * The model reads a compact text view of each result; the application finds the full
 * result on the run's tool output items ({@link catalogToolOutputOf}). Failures the model
 * can act on reach it as short text through the tool's error function; bad options throw a
 * `ConfigurationError`.
 *
 * @example
 * const agent = new Agent({ name: 'Shopper', instructions, tools: createCatalogTools() });
 * const result = await run(agent, 'Find trail running shoes under $150');
 */
export function createCatalogTools(
  options: OpenAIAgentsCatalogToolsOptions = {},
): CatalogFunctionTool[] {
  const { needsApproval = true, ...shared } = options;
  return createCatalogToolList(shared).map((catalogTool) =>
    toAgentsTool(catalogTool, needsApproval),
  );
}
