import type {
  AnyCatalogToolDefinition,
  CatalogError,
  CatalogToolDefinition,
  CatalogToolName,
  SearchCatalogOutput,
  SearchWebsitesOutput,
  UpdateCollectionOutput,
} from '@catalogkit/core';
import type {
  GetProductOutput,
  LOOKUP_TOOL_NAMES,
  LookupCatalogOutput,
} from '@catalogkit/core/tools';
import type { ToolMessage } from '@langchain/core/messages';
import type { ToolCall } from '@langchain/core/messages/tool';
import type { DynamicStructuredTool, ToolRunnableConfig } from '@langchain/core/tools';

/** Artifact of a failed call: the client's typed error (the model got a short text). */
export interface CatalogToolFailure {
  error: CatalogError;
}

/** The full result of each built-in tool, by name: the artifact of its ToolMessage. */
export interface BuiltInArtifacts {
  search_catalog: SearchCatalogOutput;
  search_websites: SearchWebsitesOutput;
  update_collection: UpdateCollectionOutput;
}

/**
 * The artifacts of the tools offered only when the service lists them (the `serviceTools`
 * option), by name.
 */
export interface LookupArtifacts {
  lookup_catalog: LookupCatalogOutput;
  get_product: GetProductOutput;
}
type LookupToolName = (typeof LOOKUP_TOOL_NAMES)[number];

/** A ToolMessage whose artifact is typed: the tool's full result, or the failure. */
export type CatalogToolMessage<Artifact = unknown> = Omit<ToolMessage, 'artifact'> & {
  artifact: Artifact | CatalogToolFailure;
};

/**
 * A catalog tool (a `DynamicStructuredTool`) whose name and artifact are known: invoked with a
 * ToolCall it gives a {@link CatalogToolMessage} of its own result type.
 */
export type CatalogLangChainTool<Name extends string = string, Artifact = unknown> = {
  readonly name: Name;
  invoke(call: ToolCall, config?: ToolRunnableConfig): Promise<CatalogToolMessage<Artifact>>;
} & DynamicStructuredTool;

/** Names `include` and `exclude` accept: the built-ins' and your own tools'. */
export type ToolNameOf<Extra extends AnyCatalogToolDefinition> =
  | CatalogToolName
  | LookupToolName
  | Extra['name'];

type BuiltInOrder = ['search_catalog', 'search_websites', 'update_collection'];

/** The built-in names that are kept, in the order the tools come back. */
type KeptBuiltIns<Names extends readonly string[], Keep> = Names extends readonly [
  infer Head extends keyof BuiltInArtifacts,
  ...infer Tail extends readonly string[],
]
  ? Head extends Keep
    ? [CatalogLangChainTool<Head, BuiltInArtifacts[Head]>, ...KeptBuiltIns<Tail, Keep>]
    : KeptBuiltIns<Tail, Keep>
  : [];

/** Your own kept tools, each with its name and `execute` result as artifact. */
type KeptCustom<Extra, Keep> =
  Extra extends CatalogToolDefinition<unknown, infer Output, infer Name>
    ? Name extends Keep
      ? CatalogLangChainTool<Name, Output>
      : never
    : never;

/**
 * What `createCatalogTools` returns without `rename`: the kept built-ins in their order
 * (`search_catalog`, `search_websites`, `update_collection`), then your own tools.
 */
export type CatalogLangChainTools<
  Extra extends AnyCatalogToolDefinition = never,
  Keep extends string = ToolNameOf<Extra>,
> = [
  ...KeptBuiltIns<BuiltInOrder, Keep>,
  // Listed by the service or not: known only at run time, so they join the rest.
  ...Array<KeptLookup<Keep> | KeptCustom<Extra, Keep>>,
];

/** The kept lookup tools, present only when the service lists them. */
type KeptLookup<Keep> = {
  [Name in LookupToolName & Keep]: CatalogLangChainTool<Name, LookupArtifacts[Name]>;
}[LookupToolName & Keep];
