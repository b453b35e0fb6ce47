import { ConfigurationError } from '@catalogkit/core';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isLegacyRequest, type McpHttpHandler } from '@modelcontextprotocol/server';
import { modernHandlerOf } from './modern.js';
import { type OriginGuard, type OriginPolicy, originGuardOf, refusal } from './origin-guard.js';
import { type ClientRateLimit, rateLimiterOf } from './rate-limit.js';
import { type RequestLimits, readJsonRpcBody, rpcErrorResponse } from './request-body.js';
import {
  closeWithScope,
  closingBody,
  openScope,
  type RequestScope,
  whenAborted,
} from './request-scope.js';
import {
  type CatalogMcpServerOptions,
  type PreparedTools,
  prepareTools,
  serverFor,
} from './server.js';

/** Options of {@link createCatalogMcpHandler}. */
export interface CatalogMcpHandlerOptions extends CatalogMcpServerOptions, OriginPolicy {
  /**
   * Answer in Server-Sent Events instead of one JSON body. Default `false`: the tools send
   * no progress notifications, so one JSON answer per request is all a client needs.
   */
  sse?: boolean;
  /**
   * Largest request body accepted, in bytes; a larger one is answered 413 without being
   * read further. Default 1 MiB (the tools' inputs are a few hundred bytes).
   */
  maxBodyBytes?: number;
  /**
   * Time the whole request body may take to arrive, in milliseconds; a slower one (a client
   * trickling bytes to hold the request open) is answered 408. Default 10 000.
   */
  bodyTimeoutMs?: number;
  /**
   * Most JSON-RPC messages in one batch (an array body); a longer batch, or an empty one, is
   * answered 400. Each tool call in a batch may call the catalog service. Default 10.
   */
  maxBatchSize?: number;
  /** Requests per client per window, answered 429 beyond it. Default: no limit. */
  rateLimit?: ClientRateLimit;
}

/** A web-standard request handler: Hono, Next.js route handlers, Workers, Bun, Deno. */
export type CatalogMcpHandler = (request: Request) => Promise<Response>;

const DEFAULT_LIMITS: RequestLimits = {
  maxBodyBytes: 1024 * 1024,
  bodyTimeoutMs: 10_000,
  maxBatchSize: 10,
};

// setTimeout fires at once for a delay over 2^31 - 1 ms.
const MAX_TIMER_MS = 2 ** 31 - 1;

function limitOf(options: CatalogMcpHandlerOptions, name: keyof RequestLimits): number {
  const value: unknown = options[name];
  if (value === undefined) return DEFAULT_LIMITS[name];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new ConfigurationError(
      `Invalid MCP handler options: ${name} must be a positive integer, got ${String(value)}`,
    );
  }
  if (name === 'bodyTimeoutMs' && value > MAX_TIMER_MS) {
    throw new ConfigurationError(
      `Invalid MCP handler options: bodyTimeoutMs must be at most ${MAX_TIMER_MS}, got ${value}`,
    );
  }
  return value;
}

function limitsOf(options: CatalogMcpHandlerOptions): RequestLimits {
  return {
    maxBodyBytes: limitOf(options, 'maxBodyBytes'),
    bodyTimeoutMs: limitOf(options, 'bodyTimeoutMs'),
    maxBatchSize: limitOf(options, 'maxBatchSize'),
  };
}

function methodNotAllowed(): Response {
  const response = rpcErrorResponse(
    405,
    -32000,
    'Method not allowed: this stateless server takes POST.',
  );
  response.headers.set('Allow', 'POST');
  return response;
}

// Nobody reads it (the client is gone); an answer is still owed to the host.
const clientGone = () => rpcErrorResponse(400, -32000, 'Request cancelled by the client.');

/** The transport's answer, or an error answer as soon as the scope closes first. */
async function answerWithin(
  transport: WebStandardStreamableHTTPServerTransport,
  request: Request,
  parsedBody: unknown,
  scope: RequestScope,
): Promise<Response> {
  // A JSON answer waits for every tool call; once the server is closed it never comes.
  const aborted = whenAborted(scope.signal).then(clientGone);
  try {
    return await Promise.race([transport.handleRequest(request, { parsedBody }), aborted]);
  } catch {
    // A bug of ours or the SDK's: its message may hold anything, so none of it is sent.
    return rpcErrorResponse(500, -32603, 'Internal error.');
  }
}

/** The closing that fits how the response ends: a stream ends when its last event is out. */
function handOver(response: Response, scope: RequestScope): Response {
  if (!response.body || scope.signal.aborted) {
    scope.close();
    return response;
  }
  const isStream = response.headers.get('content-type')?.startsWith('text/event-stream');
  if (!isStream) {
    // A JSON answer is whole once the transport gives it.
    scope.close();
    return response;
  }
  return new Response(closingBody(response.body, scope), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** What serves a request once its body is read: one leg per protocol revision. */
interface Legs {
  tools: PreparedTools;
  sse: boolean;
  limits: RequestLimits;
  /** 2026-07-28: a request carrying the per-request `_meta` envelope. */
  modern: McpHttpHandler;
}

async function serveOne(legs: Legs, request: Request): Promise<Response> {
  // Read and bounded before a server exists: a refused or slow body costs no server.
  const body = await readJsonRpcBody(request, legs.limits);
  if (!body.ok) return body.response;
  // The SDK's own classification, from the body already read: no second read.
  if (!(await isLegacyRequest(request, body.message))) {
    return legs.modern.fetch(request, { parsedBody: body.message });
  }
  return serveLegacy(legs.tools, legs.sse, request, body.message);
}

/** 2025-11-25 and earlier: a fresh 1.x server and stateless transport for the request. */
async function serveLegacy(
  tools: PreparedTools,
  sse: boolean,
  request: Request,
  message: unknown,
): Promise<Response> {
  const scope = openScope(request.signal);
  // Gone while its body was read: no server is made for nobody.
  if (scope.signal.aborted) return clientGone();
  const server = serverFor(tools, scope.signal);
  closeWithScope(server, scope);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: !sse,
  });
  try {
    await server.connect(transport);
  } catch {
    scope.close();
    return rpcErrorResponse(500, -32603, 'Internal error.');
  }
  return handOver(await answerWithin(transport, request, message, scope), scope);
}

/**
 * The catalog MCP server as a stateless Streamable HTTP endpoint: a web-standard
 * `Request → Response` function serving both protocol revisions: 2026-07-28 (stateless by
 * design: `server/discover`, the client's version and capabilities in each request's
 * `_meta`) and 2025-11-25 (the `initialize` handshake, served without a session). Each POST
 * gets a fresh server (no session, nothing kept between requests), so it runs the same on
 * one instance or many; GET and DELETE (session streams) answer 405. The tools and their
 * client are built once, here.
 *
 * Each request is bounded: its body in size (`maxBodyBytes`) and time (`bodyTimeoutMs`), a
 * batch in length (`maxBatchSize`), refused with a JSON-RPC error and a 4xx status. Its
 * server is closed however the response ends (answer sent, body cancelled unread, client
 * gone), which aborts the tool calls still running for it.
 *
 * `Host` must name an allowed host (`allowedHosts`, loopback names by default) and a present
 * `Origin` must be the server's own or an allowed one (`allowedOrigins`); `Sec-Fetch-Site:
 * cross-site` is refused. Each is answered 403 before any tool runs (DNS rebinding, CSRF).
 *
 * The server calls the catalog service with your key: anyone who can reach this endpoint
 * spends it. Put your own authentication and rate limits in front of it.
 *
 * @example
 * const handle = createCatalogMcpHandler({ clientOptions: { apiKey: env.CATALOG_API_KEY } });
 * app.all('/mcp', (c) => handle(c.req.raw)); // Hono
 * export const POST = handle; // Next.js route handler
 *
 * @throws ConfigurationError when an option is invalid.
 */
export function createCatalogMcpHandler(options: CatalogMcpHandlerOptions = {}): CatalogMcpHandler {
  const {
    sse = false,
    maxBodyBytes,
    bodyTimeoutMs,
    maxBatchSize,
    allowedOrigins,
    allowedHosts,
    rateLimit,
    ...serverOptions
  } = options;
  const limits = limitsOf({ maxBodyBytes, bodyTimeoutMs, maxBatchSize });
  const guard: OriginGuard = originGuardOf({ allowedOrigins, allowedHosts });
  const limited = rateLimiterOf(rateLimit);
  const tools = prepareTools(serverOptions);
  const legs: Legs = {
    tools,
    sse,
    limits,
    modern: modernHandlerOf(tools, { sse, maxBodyBytes: limits.maxBodyBytes }),
  };
  return async (request) => {
    // Before anything else: a refused browser or rebound name costs no body read, no server.
    const refused = refusal(guard, request);
    if (refused) return refused;
    const tooMany = limited(request);
    if (tooMany) return tooMany;
    if (request.method !== 'POST') return methodNotAllowed();
    return serveOne(legs, request);
  };
}
