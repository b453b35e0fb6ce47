import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { type CatalogMcpServerOptions, prepareTools, serverFor } from './server.js';

/** Options of {@link createCatalogMcpHandler}. */
export interface CatalogMcpHandlerOptions extends CatalogMcpServerOptions {
  /**
   * Answer in Server-Sent Events instead of one JSON body. Default `false`: the tools send
   * no progress notifications, so one JSON answer per request is all a client needs.
   */
  sse?: boolean;
}

/** A web-standard request handler: Hono, Next.js route handlers, Workers, Bun, Deno. */
export type CatalogMcpHandler = (request: Request) => Promise<Response>;

function methodNotAllowed(): Response {
  const error = { code: -32000, message: 'Method not allowed: this stateless server takes POST.' };
  return Response.json(
    { jsonrpc: '2.0', id: null, error },
    { status: 405, headers: { Allow: 'POST' } },
  );
}

/**
 * The catalog MCP server as a stateless Streamable HTTP endpoint: a web-standard
 * `Request → Response` function. Each POST gets a fresh server and transport (no session,
 * nothing kept between requests), so it runs the same on one instance or many; GET and
 * DELETE (session streams) answer 405. The tools and their client are built once, here.
 *
 * The server calls the catalog service with your key: anyone who can reach this endpoint
 * spends it. Put your own authentication in front of it.
 *
 * @example
 * const handle = createCatalogMcpHandler({ clientOptions: { apiKey: env.CATALOG_API_KEY } });
 * app.all('/mcp', (c) => handle(c.req.raw)); // Hono
 * export const POST = handle; // Next.js route handler
 *
 * @throws ConfigurationError when an option is invalid.
 */
export function createCatalogMcpHandler(options: CatalogMcpHandlerOptions = {}): CatalogMcpHandler {
  const { sse = false, ...serverOptions } = options;
  const tools = prepareTools(serverOptions);
  return async (request) => {
    if (request.method !== 'POST') return methodNotAllowed();
    const server = serverFor(tools);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: !sse,
    });
    await server.connect(transport);
    const response = await transport.handleRequest(request);
    // A JSON answer is complete here; an SSE stream ends after it is read, so close then.
    if (!sse || !response.body) {
      await server.close();
      return response;
    }
    const body = response.body.pipeThrough(new TransformStream({ flush: () => server.close() }));
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
