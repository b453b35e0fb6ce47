// What an application needs to add its own tool and read results without a direct
// dependency on @catalogkit/core.
export {
  CatalogError,
  type CatalogToolContext,
  type CatalogToolDefinition,
  type CatalogToolNames,
  type CatalogToolResult,
  defineCatalogTool,
  type SearchCatalogOutput,
  type SearchWebsitesOutput,
  type UpdateCollectionOutput,
} from '@catalogkit/core';
export {
  type CatalogMcpHandler,
  type CatalogMcpHandlerOptions,
  createCatalogMcpHandler,
} from './http-handler.js';
export type { OriginPolicy } from './origin-guard.js';
export type { ClientRateLimit } from './rate-limit.js';
export { type CatalogMcpServerOptions, createCatalogMcpServer } from './server.js';
