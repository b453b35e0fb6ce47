import {
  type AnyCatalogToolDefinition,
  CatalogError,
  type CatalogTool,
  type CatalogToolResult,
  type CatalogToolsOptions,
  createCatalogToolList,
  type SearchCatalogOutput,
  type SearchWebsitesOutput,
  type UpdateCollectionOutput,
} from '@catalogkit/core';
import { ToolMessage } from '@langchain/core/messages';
import { DynamicStructuredTool, type ToolRunnableConfig, tool } from '@langchain/core/tools';
import type { z } from 'zod/v4';
import type {
  CatalogLangChainTools,
  CatalogToolFailure,
  ToolNameOf,
} from './catalog-tool-types.js';

// The tools differ in input and output types; each execute validates its own input.
type ErasedTool = CatalogTool<unknown, CatalogToolResult, string>;

/**
 * The artifact of a catalog tool's ToolMessage: the full result of the call, in the one
 * shape of every tool (`{ request, response }`, what was asked and what came back, plus
 * `tier` for `search_catalog`), or the failure. The model only sees the compact `content`.
 * (Your own tools' artifacts are their `execute` results, in the same shape.)
 */
export type CatalogToolArtifact =
  | SearchCatalogOutput
  | SearchWebsitesOutput
  | UpdateCollectionOutput
  | CatalogToolFailure;

/** Tells a failed call's artifact from a result. */
export function isCatalogToolFailure(artifact: unknown): artifact is CatalogToolFailure {
  return typeof artifact === 'object' && artifact !== null && 'error' in artifact;
}

type ContentAndArtifact = [string | ToolMessage, unknown];

/** What a run needs of LangChain's config: the abort signal and the ToolCall's id. */
type RunContext = Pick<ToolRunnableConfig, 'signal'> & { toolCall?: { id?: string } };

/**
 * A failure the model can act on. Invoked with a ToolCall (agents, ToolNode, `tool.batch`
 * over `AIMessage.tool_calls`), it is a ToolMessage with `status: 'error'`, which LangChain
 * passes on as it is; invoked with plain input, there is no message to mark, so the text.
 */
function failureOutput(
  catalogTool: ErasedTool,
  text: string,
  error: CatalogError,
  toolCallId: string | undefined,
): ContentAndArtifact {
  const content = `Error: ${text}`;
  const artifact = { error } satisfies CatalogToolFailure;
  if (toolCallId === undefined) return [content, artifact];
  const message = new ToolMessage({
    content,
    artifact,
    status: 'error',
    tool_call_id: toolCallId,
    name: catalogTool.name,
  });
  return [message, undefined];
}

async function runTool(
  catalogTool: ErasedTool,
  input: unknown,
  config: RunContext | undefined,
): Promise<ContentAndArtifact> {
  try {
    const output = await catalogTool.execute(input, { signal: config?.signal });
    return [catalogTool.toModelOutput(output), output];
  } catch (error) {
    const text = catalogTool.errorToModelOutput(error);
    // Errors the model cannot act on (bad configuration, cancellation, bugs) are thrown.
    if (text === undefined || !(error instanceof CatalogError)) throw error;
    return failureOutput(catalogTool, text, error, config?.toolCall?.id);
  }
}

/** Options of {@link createCatalogTools}: the shared catalog tool options, your own `tools` included. */
export type LangChainCatalogToolsOptions<
  Extra extends AnyCatalogToolDefinition = AnyCatalogToolDefinition,
> = CatalogToolsOptions<Extra>;

type ObjectTool = DynamicStructuredTool<z.ZodObject>;
type CallArgs = Parameters<ObjectTool['call']>;

/** A ToolCall as LangChain recognises one (`_isToolCall`, which it does not export). */
function isToolCall(value: unknown): value is { id?: string; args: unknown } {
  return (
    typeof value === 'object' && value !== null && 'type' in value && value.type === 'tool_call'
  );
}

/** The run's config when `call` got one (it also accepts bare callbacks). */
function configOf(configArg: CallArgs[1]): ToolRunnableConfig {
  const isConfig = typeof configArg === 'object' && configArg !== null && !Array.isArray(configArg);
  return isConfig && !('handlers' in configArg) ? (configArg as ToolRunnableConfig) : {};
}

/**
 * A catalog tool as LangChain runs it. LangChain parses the arguments before the tool runs and
 * throws a `ToolInputParsingException` when they break the schema, which rejects a whole
 * `tool.batch` over a model's tool calls and words the fields LangChain's way. For a ToolCall
 * this tool answers such arguments itself: core's own validation (the same schema, run by
 * `execute` before any request) refuses them, naming every bad field, and the model gets a
 * ToolMessage with `status: 'error'`. Plain input (not a ToolCall) has no message to answer
 * with, so it keeps LangChain's convention and throws. The schema is untouched, so the JSON
 * Schema the model sees is the same.
 */
class CatalogStructuredTool extends DynamicStructuredTool<z.ZodObject> {
  readonly #catalogTool: ErasedTool;

  constructor(
    catalogTool: ErasedTool,
    fields: ConstructorParameters<typeof DynamicStructuredTool<z.ZodObject>>[0],
  ) {
    super(fields);
    this.#catalogTool = catalogTool;
  }

  override async call(...args: CallArgs): ReturnType<ObjectTool['call']> {
    const [arg, configArg] = args;
    const config = configOf(configArg);
    const toolCall = isToolCall(arg) ? arg : config.toolCall;
    const input = isToolCall(arg) ? arg.args : arg;
    if (toolCall?.id === undefined || this.#catalogTool.inputSchema.safeParse(input).success) {
      return super.call(...args);
    }
    return answerInvalidCall(this.#catalogTool, input, { signal: config.signal, toolCall });
  }
}

/** Runs a call LangChain would refuse through core, which refuses it with the model's text. */
async function answerInvalidCall(
  catalogTool: ErasedTool,
  input: unknown,
  config: RunContext & { toolCall: { id?: string } },
): Promise<ToolMessage> {
  const [content, artifact] = await runTool(catalogTool, input, config);
  if (content instanceof ToolMessage) return content;
  // Only if core accepted what LangChain's parse refused: core's check is the one that counts.
  return new ToolMessage({
    content,
    artifact,
    status: 'success',
    tool_call_id: config.toolCall.id ?? '',
    name: catalogTool.name,
  });
}

function toLangChainTool(catalogTool: ErasedTool): DynamicStructuredTool {
  const fields = {
    name: catalogTool.name,
    description: catalogTool.description,
    // Every catalog input schema is a zod object (checked by the core's tests).
    schema: catalogTool.inputSchema as z.ZodObject,
    responseFormat: 'content_and_artifact' as const,
    // Plain input is still parsed by LangChain: @langchain/core 0.3 only says "did not match
    // expected schema" unless verbose; with it, the error names the field on every line.
    verboseParsingErrors: true,
    // LangChain has no per-tool approval flag: this lets an application list the tools to
    // interrupt on (humanInTheLoopMiddleware) without naming them by hand.
    metadata: { needsApproval: catalogTool.needsApproval },
  };
  // tool() wraps the function the way each line needs (run config, abort signal); the
  // subclass takes that function as it is.
  const { func } = tool(
    (input: unknown, config?: ToolRunnableConfig) => runTool(catalogTool, input, config),
    fields,
  );
  return new CatalogStructuredTool(catalogTool, { ...fields, func });
}

/**
 * Catalog tools for LangChain.js: `search_catalog`, `search_websites` and
 * `update_collection`, plus your own `tools`, made with `tool()` and
 * `responseFormat: 'content_and_artifact'`. A tool that changes data (`update_collection`,
 * or one of yours with `mutates: true`) has `metadata.needsApproval: true`.
 * Invoked with a ToolCall, each returns a ToolMessage whose `content` is the compact view
 * for the model and whose `artifact` is the full result ({@link CatalogToolArtifact}).
 * Failures the model can act on come back as `Error: ...` content, in a ToolMessage with
 * `status: 'error'` whose artifact holds the typed error ({@link CatalogToolFailure}); bad
 * options throw a `ConfigurationError`.
 *
 * Without `rename` the result is typed per tool ({@link CatalogLangChainTools}): each tool's
 * literal name and artifact type are known, and `include`/`exclude` narrow it, so a misspelt
 * name does not compile. With `rename` it is a plain `DynamicStructuredTool[]`.
 *
 * @example
 * const tools = createCatalogTools({ clientOptions: { apiKey: process.env.CATALOG_API_KEY } });
 * const modelWithTools = model.bindTools(tools);
 */
export function createCatalogTools<
  const Extra extends AnyCatalogToolDefinition = never,
  const Included extends ToolNameOf<Extra> = ToolNameOf<Extra>,
  const Excluded extends ToolNameOf<Extra> = never,
>(
  options?: LangChainCatalogToolsOptions<Extra> & {
    include?: readonly Included[];
    exclude?: readonly Excluded[];
    rename?: undefined;
  },
): CatalogLangChainTools<Extra, Exclude<Included, Excluded>>;
/** With `rename`, the final names are only known at run time. */
export function createCatalogTools(
  options: LangChainCatalogToolsOptions & { rename(name: string): string },
): DynamicStructuredTool[];
export function createCatalogTools(
  options: LangChainCatalogToolsOptions = {},
): DynamicStructuredTool[] {
  return createLangChainTools(options);
}

/** {@link createCatalogTools} for options whose type is not known in detail (the toolkit). */
export function createLangChainTools(
  options: LangChainCatalogToolsOptions,
): DynamicStructuredTool[] {
  return createCatalogToolList(options).map((catalogTool) => toLangChainTool(catalogTool));
}
