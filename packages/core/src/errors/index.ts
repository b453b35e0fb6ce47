export * from './api-errors.js';
export * from './catalog-error.js';
export * from './mcp-errors.js';
export * from './transport-errors.js';
