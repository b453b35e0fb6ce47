/**
 * Largest page a tool asks for. The website search allows 20; the catalog search shows no
 * bound, and 20 products is already a long read for a model, so both tools share it. A
 * literal rather than a read of `WEBSITE_SEARCH_LIMITS`, so the module keeps no code when
 * unused; `test/tools-limits.test.ts` keeps the two equal.
 */
export const TOOL_RESULT_LIMIT_MAX = 20;

/** Catalog page size when neither the model nor the options give one (UCP's default is 10). */
export const CATALOG_LIMIT_DEFAULT = 5;
