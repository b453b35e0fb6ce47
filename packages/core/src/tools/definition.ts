import type { z } from 'zod/v4';
import type { CatalogClient } from '../client.js';
import type { AuthTier } from '../schemas/catalog.js';
import type { CountryCode } from '../schemas/common.js';
import type { BuyLinkMode } from './buy-link-reference.js';

/** The names of the three catalog tools, before any rename. */
export const CATALOG_TOOL_NAMES = [
  'search_catalog',
  'search_websites',
  'update_collection',
] as const;
/**
 * The service's own tools, offered only when it lists them (`serviceTools`). A custom tool may
 * not take these names, so a buy link in their results is the service's.
 */
export const LOOKUP_TOOL_NAMES = ['lookup_catalog', 'get_product'] as const;
/** The name of a built-in tool before any rename: `search_catalog`, `search_websites` or `update_collection`. */
export type CatalogToolName = (typeof CATALOG_TOOL_NAMES)[number];

/** Each tool's final name (after the rename hook), by its original name. */
export type CatalogToolNames = Readonly<Record<CatalogToolName, string>> & {
  readonly [originalName: string]: string | undefined;
};

/** Tool names every major provider accepts. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** What the tools use of a {@link CatalogClient} (a custom tool keys entries by `storeScope`). */
export type CatalogToolClient = Pick<
  CatalogClient,
  'catalog' | 'websites' | 'collections' | 'store' | 'storeScope' | 'redact'
>;

/** What every catalog tool returns; every adapter hands this same object on. */
export interface CatalogToolResult<Request = unknown, Response = unknown> {
  /** What was asked: for built-ins the request sent to the service (defaults applied). */
  request: Request;
  /** What came back, parsed leniently and never rewritten (buy links untouched). */
  response: Response;
  /** The auth tier the service answered at, where the call has one (`search_catalog`). */
  tier?: AuthTier;
}

/** Values used when the model leaves a field null. */
export interface CatalogToolDefaults {
  /** Country for `search_websites` commission rates (the service defaults to US). */
  country?: CountryCode;
  /** Placements for `search_catalog`, e.g. `["affiliate"]` to always ask for commission data. */
  placements?: string[];
  /** Result limit for both searches (1 to 20). */
  limit?: number;
}

/** What a tool's `execute` receives besides the model's input. */
export interface CatalogToolContext {
  client: CatalogToolClient;
  defaults: CatalogToolDefaults;
  signal?: AbortSignal;
}

/** A framework-neutral catalog tool, which adapters translate. Add your own with `tools`. */
export interface CatalogToolDefinition<
  Input,
  Output extends CatalogToolResult,
  Name extends string = CatalogToolName,
> {
  /** The tool's name before any rename; must match {@link TOOL_NAME_PATTERN}. */
  name: Name;
  /** Written for a model, from the final tool names (hosts may rename them) and buy-link mode. */
  description(names: CatalogToolNames, buyLinks: BuyLinkMode): string;
  /** Zod schema of the model's arguments (OpenAI strict-mode compatible). */
  inputSchema: z.ZodType<Input>;
  /** True when the tool changes the user's data, so hosts should ask before running it. */
  mutates: boolean;
  execute(input: Input, context: CatalogToolContext): Promise<Output>;
  /** The compact text the model reads for a result of `execute`. */
  toModelOutput(output: Output, buyLinks: BuyLinkMode): string;
  /** The model's name for a field the client reports by its wire path (e.g. `catalog.query`). */
  modelFieldName?(wirePath: string): string;
}

/** Any tool definition: what `tools` takes (methods, not properties, so specific ones fit). */
export type AnyCatalogToolDefinition = CatalogToolDefinition<unknown, CatalogToolResult, string>;

/** Gives a tool definition its types (its name is checked with the options, when tools are made). */
export function defineCatalogTool<Input, Output extends CatalogToolResult, Name extends string>(
  definition: CatalogToolDefinition<Input, Output, Name>,
): CatalogToolDefinition<Input, Output, Name> {
  return definition;
}
