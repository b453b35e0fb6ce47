import {
  AuthTierSchema,
  CatalogSearchResultSchema,
  CollectionSchema,
  WebsiteSearchResponseSchema,
} from '@catalogkit/core/schemas';
import { z } from 'zod/v4';

/**
 * The application-side results of the catalog tools (what `execute` returns), in the one
 * shape of every tool, `{ request, response, tier? }`, read leniently: the printer shows
 * whatever matches and ignores the rest. Which tool gave a result shows in its `response`
 * (and the catalog search's `tier`), so renamed tools print as well.
 */

/** `search_catalog`: the query as sent, the parsed result and the auth tier. */
export const CatalogToolOutputSchema = z.looseObject({
  request: z.looseObject({ query: z.string() }).optional(),
  response: CatalogSearchResultSchema,
  tier: AuthTierSchema,
});
export type CatalogToolOutput = z.infer<typeof CatalogToolOutputSchema>;

/** `search_websites`: the request as sent and the response. */
export const WebsitesToolOutputSchema = z.looseObject({
  request: z.looseObject({ query: z.string(), country: z.string().optional() }),
  response: WebsiteSearchResponseSchema,
});
export type WebsitesToolOutput = z.infer<typeof WebsitesToolOutputSchema>;

/** `update_collection`: the collection after the change. */
export const CollectionToolOutputSchema = z.looseObject({ response: CollectionSchema });
export type CollectionToolOutput = z.infer<typeof CollectionToolOutputSchema>;

/** The output of a catalog tool, tagged by what it turned out to be. */
export type ReadToolOutput =
  | { kind: 'catalog'; output: CatalogToolOutput }
  | { kind: 'websites'; output: WebsitesToolOutput }
  | { kind: 'collection'; output: CollectionToolOutput }
  | { kind: 'unknown'; output: unknown };

/** Recognises a tool's output by its shape, so renamed tools print as well. */
export function readToolOutput(output: unknown): ReadToolOutput {
  const catalog = CatalogToolOutputSchema.safeParse(output);
  if (catalog.success) return { kind: 'catalog', output: catalog.data };
  const websites = WebsitesToolOutputSchema.safeParse(output);
  if (websites.success) return { kind: 'websites', output: websites.data };
  const collection = CollectionToolOutputSchema.safeParse(output);
  if (collection.success) return { kind: 'collection', output: collection.data };
  return { kind: 'unknown', output };
}
