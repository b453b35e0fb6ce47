// `@catalogkit/core/schemas`: the wire shapes; requests strict, responses loose.
export {
  AFFILIATE_PLACEMENT,
  type AuthTier,
  AuthTierSchema,
  CATALOG_LIMIT_MAX,
  CATALOG_VARIANTS_MAX,
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
  type ReplacementClause,
} from './collections.js';
export {
  COUNTRY_CODES,
  type CountryCode,
  type ValidationIssue,
} from './common.js';
export {
  type Conversation,
  type ConversationCreate,
  ConversationCreateSchema,
  TokenMintRequestSchema,
  type Turn,
  TurnRequestSchema,
} from './conversations.js';
export { ToolCallResultSchema } from './mcp.js';
export {
  WEBSITE_SEARCH_LIMITS,
  type Website,
  type WebsiteSearchParams,
  WebsiteSearchParamsSchema,
  type WebsiteSearchResponse,
  WebsiteSearchResponseSchema,
} from './websites.js';
