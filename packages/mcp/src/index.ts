export {
  type CatalogMcpHandler,
  type CatalogMcpHandlerOptions,
  createCatalogMcpHandler,
} from './http-handler.js';
export { type CatalogMcpServerOptions, createCatalogMcpServer } from './server.js';
