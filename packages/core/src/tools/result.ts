import { ConfigurationError } from '../errors/catalog-error.js';
import { isRecord } from '../is-record.js';
import type { AuthTier } from '../schemas/catalog.js';

/**
 * What a catalog tool returns to the application: what was asked, what came back. Every
 * tool, built-in or custom, returns this one shape, and the same object is what every
 * adapter hands on: the AI SDK tool result, the LangChain artifact, the MCP
 * `structuredContent`, the OpenAI Agents run item's custom data.
 *
 * @example
 * // A search_catalog result: the query sent, the products found, the tier.
 * const { request, response, tier } = output;
 * const summary = `${response.products.length} products for ${request.query} (${tier})`;
 */
export interface CatalogToolResult<Request = unknown, Response = unknown> {
  /** What was asked: for built-ins the request sent to the service (defaults applied). */
  request: Request;
  /** What came back, parsed leniently and never rewritten (buy links untouched). */
  response: Response;
  /** The auth tier the service answered at, where the call has one (`search_catalog`). */
  tier?: AuthTier;
}

/**
 * Throws a ConfigurationError naming the tool unless `output` has the
 * {@link CatalogToolResult} shape: a custom tool written without the types would otherwise
 * hand every adapter a different shape. What the value is is said, never its content.
 */
export function assertCatalogToolResult(
  output: unknown,
  toolName: string,
): asserts output is CatalogToolResult {
  if (isRecord(output) && 'request' in output && 'response' in output) return;
  const what =
    output === null || output === undefined
      ? String(output)
      : Array.isArray(output)
        ? 'an array'
        : isRecord(output)
          ? 'an object without request and response'
          : `a ${typeof output}`;
  throw new ConfigurationError(
    `Tool ${toolName} returned ${what}; execute must return { request, response } (a CatalogToolResult): what was asked and what came back`,
  );
}
