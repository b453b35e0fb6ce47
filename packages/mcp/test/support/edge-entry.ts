// Bundled for the edge runtime test: the handler's factory, reachable from inside the VM.
import { createCatalogMcpHandler } from '../../src/index.js';

(globalThis as { createCatalogMcpHandler?: unknown }).createCatalogMcpHandler =
  createCatalogMcpHandler;
