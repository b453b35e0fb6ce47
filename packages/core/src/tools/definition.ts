import type { z } from 'zod/v4';
import type { CatalogClient } from '../client.js';
import type { CountryCode } from '../schemas/index.js';

/** The names of the three catalog tools, before any rename. */
export const CATALOG_TOOL_NAMES = [
  'search_catalog',
  'search_websites',
  'update_collection',
] as const;
export type CatalogToolName = (typeof CATALOG_TOOL_NAMES)[number];

/** Final name of each tool, after the rename hook. */
export type CatalogToolNames = Readonly<Record<CatalogToolName, string>>;

/** The part of a {@link CatalogClient} the tools call. */
export type CatalogToolClient = Pick<CatalogClient, 'catalog' | 'websites' | 'collections'>;

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

/**
 * A framework-neutral catalog tool: what adapters translate into AI SDK or LangChain tools.
 * `execute` returns the full parsed result for the application and throws the client's
 * typed errors; `toModelOutput` gives the compact text the model reads.
 */
export interface CatalogToolDefinition<
  Input,
  Output,
  Name extends CatalogToolName = CatalogToolName,
> {
  name: Name;
  /**
   * Written for a model: when to use the tool, each field, the limits, how results feed the
   * other tools. A function of the final tool names, since hosts may rename the tools.
   */
  description(names: CatalogToolNames): string;
  /** Zod schema of the model's arguments (OpenAI strict-mode compatible). */
  inputSchema: z.ZodType<Input>;
  /** True when the tool changes the user's data, so hosts should ask before running it. */
  mutates: boolean;
  execute(input: Input, context: CatalogToolContext): Promise<Output>;
  toModelOutput(output: Output): string;
  /** The model's name for a field the client reports by its wire path (e.g. `catalog.query`). */
  modelFieldName?(wirePath: string): string;
}

/** Gives a tool definition its type; the shape is checked, nothing happens at run time. */
export function defineCatalogTool<Input, Output, Name extends CatalogToolName>(
  definition: CatalogToolDefinition<Input, Output, Name>,
): CatalogToolDefinition<Input, Output, Name> {
  return definition;
}

/** Turns the model's `null` ("not given") into `undefined`, which the client omits. */
export function nullToUndefined<T>(value: T | null): T | undefined {
  return value === null ? undefined : value;
}
