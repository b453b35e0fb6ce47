import {
  type AnyCatalogToolDefinition,
  type CatalogTool,
  type CatalogToolResult,
  type CatalogToolsOptions,
  createCatalogToolList,
} from '@catalogkit/core';
import type { Tool } from 'ai';
import { isAiSdk5 } from './ai-version.js';
import type {
  CatalogToolSet,
  CatalogToolTypes,
  LookupToolName,
  LookupToolTypes,
  ToolNameOf,
} from './catalog-tool-set.js';
import { CatalogToolCallError } from './tool-call-error.js';

/**
 * Options of {@link createCatalogTools}: the shared catalog tool options (including your own
 * `tools`) plus AI SDK settings. `Extra` is the type of your own tools (inferred).
 */
export interface AiSdkCatalogToolsOptions<
  Extra extends AnyCatalogToolDefinition = AnyCatalogToolDefinition,
> extends CatalogToolsOptions<Extra> {
  /**
   * Mark `update_collection` (and every tool of yours with `mutates: true`) with `needsApproval`, so the AI SDK stops for the user's
   * approval before it changes their data. Default `true`. In AI SDK 7, the `toolApproval`
   * option of `generateText`/`streamText` takes precedence over it. AI SDK 5 has no tool
   * approval: there `update_collection` is built without `execute`, so generation stops at
   * its tool call and the application runs it once the user agrees (see the README).
   */
  needsApproval?: boolean;
  /**
   * Ask providers for strict input generation (OpenAI strict mode). The built-in schemas are
   * accepted in strict mode; your own tools' schemas must be too, or set `false` (the
   * provider refuses a schema it cannot use). Default `true`. AI SDK 5 does not pass it on to providers (use the
   * provider's own option there, see the README).
   */
  strict?: boolean;
}

interface AdapterSettings {
  needsApproval: boolean;
  strict: boolean;
  aiSdk5: boolean;
}

// AI SDK 5 calls `toModelOutput(output)`; 6 and later call it with
// `{ toolCallId, input, output }`. Either way the output is what `execute` returned (or,
// for a history the application kept, that object after a JSON round trip).
function modelOutputOf(options: unknown, settings: AdapterSettings): CatalogToolResult {
  return (settings.aiSdk5 ? options : (options as { output: unknown }).output) as CatalogToolResult;
}

// The tools differ in input and output types, and a ToolSet is keyed by runtime names,
// so the adapter works on the erased view (each execute validates its own input);
// createCatalogTools gives the set its types back. The object is built without `tool()`
// (the identity function in AI SDK 5, 6 and 7), so the source compiles against each
// version's `Tool` type: 5 has no `strict` or `needsApproval`, and ignores them.
function toAiSdkTool(
  catalogTool: CatalogTool<unknown, CatalogToolResult, string>,
  settings: AdapterSettings,
): Tool {
  const asksApproval = catalogTool.needsApproval && settings.needsApproval;
  const definition = {
    description: catalogTool.description,
    inputSchema: catalogTool.inputSchema,
    strict: settings.strict,
    ...(asksApproval ? { needsApproval: true } : {}),
    async execute(input: unknown, { abortSignal }: { abortSignal?: AbortSignal }) {
      try {
        return await catalogTool.execute(input, { signal: abortSignal });
      } catch (error) {
        const text = catalogTool.errorToModelOutput(error);
        // Errors the model cannot act on (bad configuration, cancellation, bugs) stay as they are.
        if (text === undefined) throw error;
        throw new CatalogToolCallError(catalogTool.name, text, error);
      }
    },
    // The application keeps the full result (`{ request, response, tier? }`, as `execute`
    // returned it); the model reads the compact view of that same object.
    toModelOutput: (options: unknown) => ({
      type: 'text' as const,
      value: catalogTool.toModelOutput(modelOutputOf(options, settings)),
    }),
  };
  // AI SDK 5 would run the update without asking. A tool without `execute` is its
  // human-in-the-loop pattern: generation stops at the call, which the application runs
  // after the user agrees, so nothing changes without consent.
  const aiTool =
    asksApproval && settings.aiSdk5 ? { ...definition, execute: undefined } : definition;
  return aiTool as Tool;
}

/**
 * Catalog tools for the Vercel AI SDK (5, 6 and 7): `search_catalog`, `search_websites` and
 * `update_collection` (which asks for approval), plus your own `tools`, keyed by name.
 *
 * The set is typed: each tool has its input and output types, so `toolResults[].output` is
 * the tool's result type and a misspelt tool name does not compile. `include` and `exclude`
 * narrow the type; with `rename` the names are only known at run time (a plain record).
 *
 * Each tool's `execute` returns the full result to the application (in
 * `steps[].toolResults[].output`), in one shape for every tool: `{ request, response }`,
 * what was asked and what came back, plus `tier` for `search_catalog`. The model reads a
 * compact view of it (`toModelOutput`). Failures
 * the model can act on reach it as short text; bad options throw a `ConfigurationError`.
 *
 * @example
 * const tools = createCatalogTools({ clientOptions: { apiKey: process.env.CATALOG_API_KEY } });
 * const result = await generateText({ model, tools, prompt: 'Find trail running shoes' });
 */
export function createCatalogTools<
  const Extra extends AnyCatalogToolDefinition = never,
  const Included extends ToolNameOf<Extra> = ToolNameOf<Extra>,
  const Excluded extends ToolNameOf<Extra> = never,
>(
  options?: AiSdkCatalogToolsOptions<Extra> & {
    include?: readonly Included[];
    exclude?: readonly Excluded[];
    rename?: undefined;
    serviceTools?: undefined;
  },
): CatalogToolSet<Pick<CatalogToolTypes<Extra>, Exclude<Included, Excluded | LookupToolName>>>;
/**
 * With `serviceTools`, `lookup_catalog` and `get_product` are in the set only when the service
 * lists them, so they are optional members of its type.
 */
export function createCatalogTools<
  const Extra extends AnyCatalogToolDefinition = never,
  const Included extends ToolNameOf<Extra> = ToolNameOf<Extra>,
  const Excluded extends ToolNameOf<Extra> = never,
>(
  options: AiSdkCatalogToolsOptions<Extra> & {
    include?: readonly Included[];
    exclude?: readonly Excluded[];
    rename?: undefined;
    serviceTools: readonly string[];
  },
): CatalogToolSet<Pick<CatalogToolTypes<Extra>, Exclude<Included, Excluded | LookupToolName>>> &
  Partial<CatalogToolSet<Pick<LookupToolTypes, Exclude<Included, Excluded> & LookupToolName>>>;
/** With `rename`, the final names are only known at run time. */
export function createCatalogTools<const Extra extends AnyCatalogToolDefinition = never>(
  options: AiSdkCatalogToolsOptions<Extra> & { rename(name: string): string },
): Record<string, Tool<unknown, unknown>>;
export function createCatalogTools(options: AiSdkCatalogToolsOptions = {}): Record<string, Tool> {
  const { needsApproval = true, strict = true, ...shared } = options;
  const settings = { needsApproval, strict, aiSdk5: isAiSdk5() };
  const tools: Record<string, Tool> = {};
  for (const catalogTool of createCatalogToolList(shared)) {
    tools[catalogTool.name] = toAiSdkTool(catalogTool, settings);
  }
  return tools;
}
