export type {
  CatalogApi,
  CollectionsApi,
  ConversationsApi,
  WebsitesApi,
} from './client.js';
export { CatalogClient } from './client.js';
export type { CatalogClientOptions, McpAuthHeader } from './client-options.js';
export * from './conversations/index.js';
export * from './errors/index.js';
export type { RestAuth, RestRequest, RestResponse } from './http/rest-call.js';
export type { RetryMode } from './http/retry.js';
export { parseRetryAfter, type RetryAfter } from './http/retry-after.js';
export type { RequestOptions } from './http/service-connection.js';
export { parseWwwAuthenticate } from './http/www-authenticate.js';
export type { CatalogLogger, LogContext } from './logger.js';
export type { CatalogSearchOptions, CatalogSearchResponse } from './mcp/catalog-search.js';
export * from './schemas/index.js';
export * from './tools/index.js';
