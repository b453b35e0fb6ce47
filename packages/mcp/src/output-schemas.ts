import type { CatalogToolName } from '@catalogkit/core';
import {
  AuthTierSchema,
  CatalogQuerySchema,
  CatalogSearchResultSchema,
  CollectionSchema,
  CollectionUpdateSchema,
  WebsiteSearchParamsSchema,
  WebsiteSearchResponseSchema,
} from '@catalogkit/core/schemas';
import { z } from 'zod/v4';

/**
 * The shape of each tool's `structuredContent`: the full result the tool returns, built
 * from the wire schemas it was parsed with (responses stay open to unknown fields).
 */
export const OUTPUT_SCHEMAS: Readonly<Record<CatalogToolName, z.ZodType>> = {
  search_catalog: z.object({
    query: CatalogQuerySchema,
    result: CatalogSearchResultSchema,
    tier: AuthTierSchema,
  }),
  search_websites: z.object({
    request: WebsiteSearchParamsSchema,
    response: WebsiteSearchResponseSchema,
  }),
  update_collection: z.object({
    collectionId: z.string(),
    update: CollectionUpdateSchema,
    collection: CollectionSchema,
  }),
};
