/*
 * `@catalogkit/core/schemas`: the zod schemas of the service's wire shapes and their types,
 * for the emulator and for power users who validate or build wire data themselves.
 * Requests are strict (unknown fields refused), responses loose (unknown fields kept).
 */
export {
  AFFILIATE_PLACEMENT,
  type AuthTier,
  AuthTierSchema,
  CATALOG_LIMIT_MAX,
  CATALOG_VARIANTS_MAX,
  type CatalogMessage,
  type CatalogMeta,
  type CatalogQuery,
  CatalogQuerySchema,
  type CatalogSearchResult,
  CatalogSearchResultSchema,
  commissionPercentage,
  type Placement,
  type PlacementCommission,
  type Price,
  type Product,
  ProductSchema,
  SEARCH_CATALOG_TOOL,
  type SearchCatalogArguments,
  SearchCatalogArgumentsSchema,
  type Variant,
} from './catalog.js';
export {
  CATALOG_LOOKUP_MAX,
  type CatalogLookup,
  type CatalogLookupResult,
  CatalogLookupResultSchema,
  CatalogLookupSchema,
  GET_PRODUCT_TOOL,
  type GetProductArguments,
  GetProductArgumentsSchema,
  type GetProductResult,
  GetProductResultSchema,
  LOOKUP_CATALOG_TOOL,
  type LookupCatalogArguments,
  LookupCatalogArgumentsSchema,
  type ProductSelection,
  ProductSelectionSchema,
} from './catalog-lookup.js';
export {
  type Clause,
  type Collection,
  CollectionSchema,
  type CollectionUpdate,
  CollectionUpdateSchema,
  type NewClause,
  NewClauseSchema,
  type ReplacementClause,
} from './collections.js';
export {
  COUNTRY_CODES,
  type CountryCode,
  CountryCodeSchema,
  type ErrorResponse,
  type ValidationIssue,
} from './common.js';
export {
  type Conversation,
  type ConversationCreate,
  ConversationCreateSchema,
  type ConversationToken,
  type TokenMintRequest,
  TokenMintRequestSchema,
  type Turn,
  type TurnRequest,
  TurnRequestSchema,
} from './conversations.js';
export {
  type JsonRpcError,
  type JsonRpcResponse,
  type ToolCallResult,
  ToolCallResultSchema,
} from './mcp.js';
export {
  WEBSITE_SEARCH_LIMITS,
  type Website,
  type WebsiteSearchParams,
  WebsiteSearchParamsSchema,
  type WebsiteSearchResponse,
  WebsiteSearchResponseSchema,
} from './websites.js';
