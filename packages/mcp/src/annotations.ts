import type { CatalogToolName } from '@catalogkit/core';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';

/**
 * Hints hosts use to decide what to run without asking. The searches only read; the update
 * changes the user's collection (not destructive, but not idempotent: adding a clause twice
 * adds two), so hosts ask before running it. All three reach the catalog service.
 */
export const TOOL_ANNOTATIONS: Readonly<Record<CatalogToolName, ToolAnnotations>> = {
  search_catalog: { title: 'Search the product catalog', readOnlyHint: true, openWorldHint: true },
  search_websites: {
    title: 'Find retailers and their commission rates',
    readOnlyHint: true,
    openWorldHint: true,
  },
  update_collection: {
    title: "Change one of the user's collections",
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
};
