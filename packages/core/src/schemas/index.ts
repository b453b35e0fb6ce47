export * from './catalog.js';
export * from './collections.js';
export * from './common.js';
export * from './conversations.js';
export * from './mcp.js';
export * from './websites.js';
