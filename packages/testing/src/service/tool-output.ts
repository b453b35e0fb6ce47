import type { Json } from '../json.js';

/**
 * A catalog tool's output as the application gets it from any adapter: what was asked and
 * what came back (`{ request, response }`, core's `CatalogToolResult`). The one place the
 * kit writes a tool output, so it follows core's shape in one line.
 */
export function catalogToolOutput(
  request: Json,
  response: Json,
): { request: Json; response: Json } {
  return { request, response };
}
