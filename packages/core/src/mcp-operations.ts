/**
 * The operations of the MCP endpoint: JSON-RPC POSTs that change nothing. An exact list, not
 * a `catalog.` prefix, so that a REST call named `catalog.*` is neither taken for a read by
 * the payment step nor counted on the MCP rate-limit surface.
 */
export const MCP_OPERATIONS: ReadonlySet<string> = new Set([
  'catalog.search',
  'catalog.lookup',
  'catalog.getProduct',
  'catalog.tools',
]);
