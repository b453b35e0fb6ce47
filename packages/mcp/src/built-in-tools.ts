import {
  AuthTierSchema,
  CatalogLookupResultSchema,
  CatalogLookupSchema,
  CatalogQuerySchema,
  CatalogSearchResultSchema,
  CollectionSchema,
  CollectionUpdateSchema,
  GetProductResultSchema,
  ProductSelectionSchema,
  WebsiteSearchParamsSchema,
  WebsiteSearchResponseSchema,
} from '@catalogkit/core/schemas';
import {
  CATALOG_TOOL_NAMES,
  type CatalogToolName,
  LOOKUP_TOOL_NAMES,
} from '@catalogkit/core/tools';
import type { Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod/v4';
import { withOptionalFields } from './json-schema.js';

/**
 * The shape of each built-in's `structuredContent`: the one shape of every tool's result,
 * `{ request, response }` (what was asked, what came back, plus `tier` for
 * `search_catalog`), built from the wire schemas each part was checked or parsed with
 * (responses stay open to unknown fields).
 */
const OUTPUT_SCHEMAS: Readonly<Record<BuiltInName, z.ZodType>> = {
  search_catalog: z.object({
    request: CatalogQuerySchema,
    response: CatalogSearchResultSchema,
    tier: AuthTierSchema,
  }),
  lookup_catalog: z.object({
    request: CatalogLookupSchema,
    response: CatalogLookupResultSchema,
    tier: AuthTierSchema,
  }),
  get_product: z.object({
    request: ProductSelectionSchema,
    response: GetProductResultSchema,
    tier: AuthTierSchema,
  }),
  search_websites: z.object({
    request: WebsiteSearchParamsSchema,
    response: WebsiteSearchResponseSchema,
  }),
  update_collection: z.object({
    request: z.object({ collectionId: z.string(), update: CollectionUpdateSchema }),
    response: CollectionSchema,
  }),
};

/**
 * Hints hosts use to decide what to run without asking. The searches only read; the update
 * changes the user's collection and is destructive (it removes and replaces clauses and
 * renames: MCP keeps `destructiveHint: false` for updates that only add) and not idempotent,
 * so hosts that honour annotations ask before running it; where the host supports
 * elicitation the server also asks the user itself (`confirmChanges`). All three reach the
 * catalog service.
 */
const ANNOTATIONS: Readonly<Record<BuiltInName, ToolAnnotations>> = {
  search_catalog: { title: 'Search the product catalog', readOnlyHint: true, openWorldHint: true },
  lookup_catalog: {
    title: 'Look up products by id or page URL',
    readOnlyHint: true,
    openWorldHint: true,
  },
  get_product: { title: 'Get one product and its offers', readOnlyHint: true, openWorldHint: true },
  search_websites: {
    title: 'Find retailers and their commission rates',
    readOnlyHint: true,
    openWorldHint: true,
  },
  update_collection: {
    title: "Change one of the user's collections",
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
};

/** The built-ins: the three, and the two offered when the service lists them. */
type BuiltInName = CatalogToolName | (typeof LOOKUP_TOOL_NAMES)[number];

function builtIn(originalName: string): BuiltInName | undefined {
  return [...CATALOG_TOOL_NAMES, ...LOOKUP_TOOL_NAMES].find((name) => name === originalName);
}

/** A tool's output schema: the built-ins have one; tools of the application do not say. */
export function outputSchemaOf(originalName: string): z.ZodType | undefined {
  const name = builtIn(originalName);
  return name && OUTPUT_SCHEMAS[name];
}

/**
 * Fields of list items a built-in fills in when the model leaves them out: a new clause's
 * selectors default to `[]` (a replacement's stay required: leaving one out is ambiguous).
 */
const OPTIONAL_ITEM_FIELDS: Readonly<Record<BuiltInName, Readonly<Record<string, string[]>>>> = {
  search_catalog: {},
  lookup_catalog: {},
  get_product: {},
  search_websites: {},
  update_collection: {
    add_clauses: ['brand_ids', 'website_ids', 'category_ids', 'product_ids'],
  },
};

/**
 * The input schema a tool advertises on MCP. A built-in's nullable fields become optional
 * (its preprocess makes a missing field null); a tool of the application keeps its schema
 * as written, since nothing fills in what its model leaves out.
 */
export function advertisedInputSchema(
  originalName: string,
  strict: Tool['inputSchema'],
): Tool['inputSchema'] {
  const name = builtIn(originalName);
  return name ? withOptionalFields(strict, OPTIONAL_ITEM_FIELDS[name]) : strict;
}

/**
 * The human title hosts show for a tool: a built-in's own, else its name in words
 * (`archive_collection` → "Archive collection").
 */
export function titleOf(originalName: string, name: string): string {
  const builtInName = builtIn(originalName);
  const title = builtInName && ANNOTATIONS[builtInName].title;
  if (title) return title;
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A tool's annotations. For a tool of the application only what its definition says: whether
 * it changes data (`mutates`); hosts then treat a changing tool as destructive and ask first.
 */
export function annotationsOf(originalName: string, mutates: boolean): ToolAnnotations {
  const name = builtIn(originalName);
  return name ? ANNOTATIONS[name] : { readOnlyHint: !mutates };
}
