import {
  type AnyCatalogToolDefinition,
  CatalogError,
  type CatalogTool,
  type CatalogToolsOptions,
  createCatalogToolList,
  type SearchCatalogOutput,
  type SearchWebsitesOutput,
  type UpdateCollectionOutput,
} from '@catalogkit/core';
import { ToolMessage } from '@langchain/core/messages';
import { type DynamicStructuredTool, type ToolRunnableConfig, tool } from '@langchain/core/tools';
import type { z } from 'zod/v4';

/** Artifact of a failed call: the client's typed error (the model got a short text). */
export interface CatalogToolFailure {
  error: CatalogError;
}

/**
 * The artifact of a catalog tool's ToolMessage: the full result of the call, or the
 * failure. The model only sees the compact `content`. (Your own tools' artifacts are their
 * `execute` results.)
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

/**
 * A failure the model can act on. Invoked with a ToolCall (agents, ToolNode, `tool.batch`
 * over `AIMessage.tool_calls`), it is a ToolMessage with `status: 'error'`, which LangChain
 * passes on as it is; invoked with plain input, there is no message to mark, so the text.
 */
function failureOutput(
  catalogTool: CatalogTool<unknown, unknown, string>,
  text: string,
  error: CatalogError,
  config: ToolRunnableConfig | undefined,
): ContentAndArtifact {
  const content = `Error: ${text}`;
  const artifact = { error } satisfies CatalogToolFailure;
  const toolCallId = config?.toolCall?.id;
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
  catalogTool: CatalogTool<unknown, unknown, string>,
  input: unknown,
  config: ToolRunnableConfig | undefined,
): Promise<ContentAndArtifact> {
  try {
    const output = await catalogTool.execute(input, { signal: config?.signal });
    return [catalogTool.toModelOutput(output), output];
  } catch (error) {
    const text = catalogTool.errorToModelOutput(error);
    // Errors the model cannot act on (bad configuration, cancellation, bugs) are thrown.
    if (text === undefined || !(error instanceof CatalogError)) throw error;
    return failureOutput(catalogTool, text, error, config);
  }
}

/** Options of {@link createCatalogTools}: the shared catalog tool options, your own `tools` included. */
export type LangChainCatalogToolsOptions = CatalogToolsOptions<AnyCatalogToolDefinition>;

function toLangChainTool(
  catalogTool: CatalogTool<unknown, unknown, string>,
): DynamicStructuredTool {
  return tool(
    (input: unknown, config?: ToolRunnableConfig) => runTool(catalogTool, input, config),
    {
      name: catalogTool.name,
      description: catalogTool.description,
      // Every catalog input schema is a zod object (checked by the core's tests).
      schema: catalogTool.inputSchema as z.ZodObject,
      responseFormat: 'content_and_artifact',
      // @langchain/core 0.3 only says "did not match expected schema" unless verbose; with it,
      // the error (which ToolNode shows the model) names the field on every supported line.
      verboseParsingErrors: true,
      // LangChain has no per-tool approval flag: this lets an application list the tools to
      // interrupt on (humanInTheLoopMiddleware) without naming them by hand.
      metadata: { needsApproval: catalogTool.needsApproval },
    },
  );
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
 * @example
 * const tools = createCatalogTools({ clientOptions: { apiKey: process.env.CATALOG_API_KEY } });
 * const modelWithTools = model.bindTools(tools);
 */
export function createCatalogTools(
  options: LangChainCatalogToolsOptions = {},
): DynamicStructuredTool[] {
  return createCatalogToolList(options).map((catalogTool) => toLangChainTool(catalogTool));
}
