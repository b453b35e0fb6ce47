/**
 * Largest page a tool asks for: the website search allows 20, and 20 products is already a
 * long read for a model (`test/tools-limits.test.ts` keeps it equal to the website limit).
 */
export const TOOL_RESULT_LIMIT_MAX = 20;

/** Catalog page size when neither the model nor the options give one (UCP's default is 10). */
export const CATALOG_LIMIT_DEFAULT = 5;
