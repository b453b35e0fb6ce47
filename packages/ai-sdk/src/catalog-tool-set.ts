import type {
  AnyCatalogToolDefinition,
  CatalogToolDefinition,
  CatalogToolName,
  SearchCatalogInput,
  SearchCatalogOutput,
  SearchWebsitesInput,
  SearchWebsitesOutput,
  UpdateCollectionInput,
  UpdateCollectionOutput,
} from '@catalogkit/core';
import type {
  GetProductInput,
  GetProductOutput,
  LOOKUP_TOOL_NAMES,
  LookupCatalogInput,
  LookupCatalogOutput,
} from '@catalogkit/core/tools';
import type { Tool } from 'ai';

/**
 * Input and output types of the three built-in tools, by name. A type, not an interface, so
 * that it fits where the AI SDK wants a record of tools (`UIMessage<..., ..., Tools>`).
 */
export type BuiltInToolTypes = {
  search_catalog: { input: SearchCatalogInput; output: SearchCatalogOutput };
  search_websites: { input: SearchWebsitesInput; output: SearchWebsitesOutput };
  update_collection: { input: UpdateCollectionInput; output: UpdateCollectionOutput };
};

/**
 * Input and output types of the tools offered only when the service lists them (the
 * `serviceTools` option): in the set or not at run time, so optional in its type.
 */
export type LookupToolTypes = {
  lookup_catalog: { input: LookupCatalogInput; output: LookupCatalogOutput };
  get_product: { input: GetProductInput; output: GetProductOutput };
};
/** `lookup_catalog` or `get_product`. */
export type LookupToolName = (typeof LOOKUP_TOOL_NAMES)[number];

/** Input and output types of your own tools (the `tools` option), by name. */
export type CustomToolTypes<Extra extends AnyCatalogToolDefinition> = {
  [Definition in Extra as Definition['name']]: Definition extends CatalogToolDefinition<
    infer Input,
    infer Output,
    string
  >
    ? { input: Input; output: Output }
    : never;
};

/** Input and output types of every tool a call of `createCatalogTools` can build. */
export type CatalogToolTypes<Extra extends AnyCatalogToolDefinition = never> = BuiltInToolTypes &
  CustomToolTypes<Extra>;

/** Names `include` and `exclude` accept: the built-ins' and your own tools'. */
export type ToolNameOf<Extra extends AnyCatalogToolDefinition> =
  | CatalogToolName
  | LookupToolName
  | Extra['name'];

/**
 * The tool set `createCatalogTools` returns: an AI SDK tool per name, typed with that tool's
 * input and output, so `generateText` results are typed and a misspelt name does not compile.
 */
export type CatalogToolSet<Types = BuiltInToolTypes> = {
  [Name in keyof Types]: Types[Name] extends { input: infer Input; output: infer Output }
    ? Tool<Input, Output>
    : never;
};
