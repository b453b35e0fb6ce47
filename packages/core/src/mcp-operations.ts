/**
 * The MCP endpoint's operations (POSTs that change nothing); not a `catalog.` prefix, so a REST
 * call named `catalog.*` is neither a read to the payment step nor on the MCP rate-limit surface.
 */
export const MCP_OPERATIONS: ReadonlySet<string> = new Set([
  'catalog.search',
  'catalog.lookup',
  'catalog.getProduct',
  'catalog.tools',
]);
