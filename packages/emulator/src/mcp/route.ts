import type { AuthTier } from '@catalogkit/core';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Context } from 'hono';
import { bearerCredential } from '../bearer.js';
import type { EmulatorContext } from '../context.js';
import { USER_IDS } from '../options.js';
import { payForToolCall } from '../payment/mcp-payment.js';
import type { Caller } from './search-tool.js';
import { createMcpServer } from './server.js';

/** The header that tells the caller which tier was applied. */
export const AUTH_TIER_HEADER = 'x-ucp-auth-tier';

interface ParsedRpc {
  body: unknown;
  ok: boolean;
}

/** Reads the body once (Hono caches the text) so routing, limits and the transport agree. */
async function readRpc(c: Context): Promise<ParsedRpc> {
  const text = await c.req.text();
  try {
    return { body: JSON.parse(text), ok: true };
  } catch {
    return { body: text, ok: false };
  }
}

const messages = (body: unknown): unknown[] => (Array.isArray(body) ? body : [body]);

const methodOf = (message: unknown): string | undefined =>
  message !== null &&
  typeof message === 'object' &&
  'method' in message &&
  typeof message.method === 'string'
    ? message.method
    : undefined;

/** Stats and fault names of an MCP request: `POST /mcp` and `POST /mcp <method>`. */
export async function mcpRouteNames(c: Context): Promise<string[]> {
  const rpc = await readRpc(c);
  const methods = rpc.ok
    ? messages(rpc.body)
        .map(methodOf)
        .filter((m) => m !== undefined)
    : [];
  return ['POST /mcp', ...new Set(methods.map((method) => `POST /mcp ${method}`))];
}

/** Token tier for a working key in `x-api-key` or `Authorization: Bearer`; anything else is anonymous, never 401. */
function callerOf(emulator: EmulatorContext, c: Context): Caller & { userId?: string } {
  const bearer = bearerCredential(c.req.header('authorization'));
  const userId = emulator.userIdForKey(c.req.header('x-api-key') ?? bearer);
  return userId ? { tier: 'token', publisherId: `pub_${userId}`, userId } : { tier: 'anonymous' };
}

function withTier(response: Response, tier: AuthTier, onDone?: () => void): Response {
  const headers = new Headers(response.headers);
  headers.set(AUTH_TIER_HEADER, tier);
  let body = response.body;
  if (onDone && body) body = body.pipeThrough(new TransformStream({ flush: onDone }));
  else onDone?.();
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/** A 429 with Retry-After and a JSON-RPC -32000 error carrying `data.retry_after` (seconds). */
function rateLimited(
  body: unknown,
  tier: AuthTier,
  retryAfterSeconds: number,
  limit: number,
): Response {
  const first = messages(body)[0];
  const id = first && typeof first === 'object' && 'id' in first ? first.id : null;
  const error = {
    code: -32000,
    message: `Rate limit exceeded: ${limit} catalog searches per UTC day for the ${tier} tier.`,
    data: { retry_after: retryAfterSeconds },
  };
  return Response.json(
    { jsonrpc: '2.0', id, error },
    {
      status: 429,
      headers: { 'Retry-After': String(retryAfterSeconds), [AUTH_TIER_HEADER]: tier },
    },
  );
}

/** A paid tool call runs as the valid key's user (token tier, monetized links). */
const PAID_CALLER = {
  tier: 'token',
  publisherId: `pub_${USER_IDS.valid}`,
  userId: USER_IDS.valid,
} as const;

/** `POST /mcp`: the official SDK server and web-standard Streamable HTTP transport, stateless. */
export function mcpPostHandler(emulator: EmulatorContext) {
  return async (c: Context): Promise<Response> => {
    const rpc = await readRpc(c);
    const toolCall =
      rpc.ok && messages(rpc.body).some((message) => methodOf(message) === 'tools/call');
    const payment = await payForToolCall(emulator, c, toolCall, AUTH_TIER_HEADER);
    if (payment.kind === 'refused') return payment.response;
    const caller = payment.kind === 'paid' ? PAID_CALLER : callerOf(emulator, c);
    // Only tool calls spend quota (initialize and tools/list are protocol overhead); a paid
    // call is paid for instead.
    if (toolCall && payment.kind === 'free') {
      const limit =
        caller.tier === 'token' ? emulator.rateLimits.mcpToken : emulator.rateLimits.mcpAnonymous;
      const decision = emulator.rateLimiter.take(
        caller.userId ? `mcp:${caller.userId}` : 'mcp:anonymous',
        limit,
      );
      if (!decision.allowed)
        return rateLimited(rpc.body, caller.tier, decision.retryAfterSeconds, limit);
    }
    const server = createMcpServer(emulator.data, {
      caller,
      origin: new URL(c.req.url).origin,
      lookupTools: emulator.lookupTools,
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: emulator.mcpResponse === 'json',
      keepAliveMs: 0,
    });
    await server.connect(transport);
    const request = rpc.ok
      ? c.req.raw
      : new Request(c.req.raw.url, {
          method: 'POST',
          headers: c.req.raw.headers,
          body: String(rpc.body),
        });
    const response = await transport.handleRequest(
      request,
      rpc.ok ? { parsedBody: rpc.body } : undefined,
    );
    // Stateless: this server and transport serve one request; close them once it is answered.
    const answer = withTier(response, caller.tier, () => void server.close());
    if (payment.kind === 'paid') answer.headers.set('Payment-Receipt', payment.receipt);
    return answer;
  };
}

/** GET and DELETE: a stateless server has no session stream to open or close. */
export function mcpMethodNotAllowed(emulator: EmulatorContext) {
  return (c: Context): Response => {
    const error = {
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32000,
        message: 'Method not allowed: this server is stateless; POST JSON-RPC messages.',
      },
    };
    return withTier(
      Response.json(error, { status: 405, headers: { Allow: 'POST' } }),
      callerOf(emulator, c).tier,
    );
  };
}
