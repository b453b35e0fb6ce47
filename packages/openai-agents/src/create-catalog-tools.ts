import {
  type AnyCatalogToolDefinition,
  type CatalogTool,
  type CatalogToolResult,
  type CatalogToolsOptions,
  createCatalogToolList,
  type SearchCatalogOutput,
  type SearchWebsitesOutput,
  type UpdateCollectionOutput,
} from '@catalogkit/core';
import { type FunctionTool, type RunItem, type ToolInputParameters, tool } from '@openai/agents';
import { z } from 'zod/v4';

/**
 * Options of {@link createCatalogTools}: the shared catalog tool options (your own `tools`
 * included) plus Agents SDK settings.
 */
export interface OpenAIAgentsCatalogToolsOptions
  extends CatalogToolsOptions<AnyCatalogToolDefinition> {
  /**
   * Mark `update_collection` (and every tool of yours with `mutates: true`) with
   * `needsApproval`, so the run stops with an interruption for the user's approval before it
   * changes their data. Default `true`.
   */
  needsApproval?: boolean;
  /**
   * Strict input generation (OpenAI strict mode), default `true`: the built-in schemas pass
   * it; your own tools' schemas must too (OpenAI refuses one it cannot use). `false` sends
   * every tool non-strict.
   */
  strict?: boolean;
}

/**
 * The full result of a built-in catalog tool call, as the application gets it: the one shape
 * of every tool, `{ request, response }` (what was asked, what came back), plus `tier` for
 * `search_catalog`.
 */
export type CatalogToolOutput = SearchCatalogOutput | SearchWebsitesOutput | UpdateCollectionOutput;

const RESULT_KEY = 'catalogkit';

/** The SDK's JSON Schema parameters, strict or not (its types are not exported by name). */
type StrictJsonParameters = Extract<ToolInputParameters, { additionalProperties: false }>;
type NonStrictJsonParameters = Extract<ToolInputParameters, { additionalProperties: true }>;

/** A catalog tool as an Agents SDK function tool (any agent context). */
export type CatalogFunctionTool = FunctionTool<
  unknown,
  StrictJsonParameters | NonStrictJsonParameters,
  string
>;

/**
 * The full result of a catalog tool call from a run's `tool_call_output_item` (the model
 * read the compact text in `item.output`), or `undefined` for other items and failed calls:
 * `{ request, response, tier? }`, the same object the tool's `execute` returned. For a tool
 * of yours name its type, e.g. `catalogToolOutputOf<CatalogToolResult<Query, Offer[]>>(item)`.
 *
 * @example
 * const results = result.newItems.map(catalogToolOutputOf).filter((output) => output !== undefined);
 */
export function catalogToolOutputOf<Output extends CatalogToolResult = CatalogToolOutput>(
  item: RunItem,
): Output | undefined {
  if (item.type !== 'tool_call_output_item') return undefined;
  return item.customData?.[RESULT_KEY] as Output | undefined;
}

// The tools differ in input and output types; each execute validates its own input.
type ErasedTool = CatalogTool<unknown, CatalogToolResult, string>;

/**
 * The input schema as plain JSON Schema (strict: every field required, no extra fields):
 * the SDK then only parses the model's JSON, and the tool's own validation names each bad
 * field in the error text the model reads.
 */
function parametersOf(catalogTool: ErasedTool): StrictJsonParameters {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(catalogTool.inputSchema);
  return schema as StrictJsonParameters;
}

interface AdapterSettings {
  needsApproval: boolean;
  strict: boolean;
}

/** What the SDK passes `execute` besides the input (the parts used here). */
interface CallDetails {
  signal?: AbortSignal;
  toolCall?: { callId: string };
}

function toAgentsTool(catalogTool: ErasedTool, settings: AdapterSettings): CatalogFunctionTool {
  // The SDK gives the model what `execute` returns; the full result waits here, by call id,
  // until it is attached to the run item as custom data (the same object, not a copy).
  const pending = new Map<string, CatalogToolResult>();
  const common = {
    name: catalogTool.name,
    description: catalogTool.description,
    needsApproval: catalogTool.needsApproval && settings.needsApproval,
    async execute(input: unknown, _context: unknown, details?: CallDetails): Promise<string> {
      const output = await catalogTool.execute(input, { signal: details?.signal });
      const callId = details?.toolCall?.callId;
      if (callId !== undefined) pending.set(callId, output);
      return catalogTool.toModelOutput(output);
    },
    errorFunction(_context: unknown, error: unknown): string {
      const text = catalogTool.errorToModelOutput(error);
      // Errors the model cannot act on (bad configuration, cancellation, bugs) end the run.
      if (text === undefined) throw error;
      return text;
    },
    customDataExtractor({ toolCall }: { toolCall: { callId: string } }) {
      const output = pending.get(toolCall.callId);
      pending.delete(toolCall.callId);
      return output === undefined ? undefined : { [RESULT_KEY]: output };
    },
  };
  const parameters = parametersOf(catalogTool);
  return settings.strict
    ? tool({ ...common, parameters, strict: true })
    : // Sent as it is, without strict mode: the SDK types non-strict schemas as open objects.
      tool({
        ...common,
        parameters: parameters as unknown as NonStrictJsonParameters,
        strict: false,
      });
}

/**
 * Catalog tools for the OpenAI Agents SDK: `search_catalog`, `search_websites` and
 * `update_collection` (which needs approval), plus your own `tools`, as function tools for
 * an `Agent`.
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
  const { needsApproval = true, strict = true, ...shared } = options;
  const settings = { needsApproval, strict };
  return createCatalogToolList(shared).map((catalogTool) => toAgentsTool(catalogTool, settings));
}
