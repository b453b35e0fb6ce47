import { WEBSITE_SEARCH_LIMITS } from '../schemas/index.js';

/**
 * Largest page a tool asks for. The website search allows 20; the catalog search shows no
 * bound, and 20 products is already a long read for a model, so both tools share it.
 */
export const TOOL_RESULT_LIMIT_MAX = WEBSITE_SEARCH_LIMITS.limitMax;

/** Catalog page size when neither the model nor the options give one (UCP's default is 10). */
export const CATALOG_LIMIT_DEFAULT = 5;
