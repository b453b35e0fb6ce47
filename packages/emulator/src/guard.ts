import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import type { EmulatorContext } from './context.js';
import type { FaultRule } from './faults.js';

/** The Node request/response pair @hono/node-server passes as `c.env`; absent when embedded elsewhere. */
interface NodeBindings {
  incoming?: IncomingMessage;
  outgoing?: ServerResponse;
}

/** Tells @hono/node-server that the response was written by hand (its RESPONSE_ALREADY_SENT marker). */
const alreadySent = (): Response =>
  new Response(null, { headers: { 'x-hono-already-sent': 'true' } });

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function bindings(c: Context): NodeBindings {
  return (c.env ?? {}) as NodeBindings;
}

function dropConnection(c: Context): Response {
  const { incoming } = bindings(c);
  if (!incoming)
    throw new Error('Dropping connections needs @hono/node-server (use startEmulator)');
  incoming.socket.destroy();
  return alreadySent();
}

/** Sends the status, the headers (with the full Content-Length) and half the body, then closes. */
async function truncateResponse(c: Context, response: Response): Promise<Response> {
  const { outgoing } = bindings(c);
  if (!outgoing) throw new Error('Truncating bodies needs @hono/node-server (use startEmulator)');
  const body = new Uint8Array(await response.arrayBuffer());
  const headers = Object.fromEntries(response.headers);
  headers['content-length'] = String(body.byteLength);
  delete headers['transfer-encoding'];
  outgoing.writeHead(response.status, headers);
  outgoing.write(body.subarray(0, Math.floor(body.byteLength / 2)), () =>
    outgoing.socket?.destroy(),
  );
  return alreadySent();
}

async function applyAfter(c: Context, rule: FaultRule): Promise<Response | undefined> {
  if (rule.drop === 'after') {
    // Read the whole answer first: for streamed (SSE) answers the work is done only then.
    await c.res.arrayBuffer();
    return dropConnection(c);
  }
  if (rule.truncate) return truncateResponse(c, c.res);
  return undefined;
}

/**
 * Wraps a route: counts the request under its names, then applies any fault set for
 * them. `names` is given per request because MCP routes add the JSON-RPC method.
 */
export function guard(
  emulator: EmulatorContext,
  names: (c: Context) => string[] | Promise<string[]>,
): MiddlewareHandler {
  return async (c, next) => {
    const routes = await names(c);
    for (const route of routes) emulator.stats.record(route);
    const rule = emulator.faults.take(routes);
    if (!rule) return next();
    if (rule.latencyMs) await sleep(rule.latencyMs);
    if (rule.drop === 'before') return dropConnection(c);
    if (rule.status !== undefined) {
      const headers: Record<string, string> =
        rule.retryAfterSeconds !== undefined
          ? { 'Retry-After': String(rule.retryAfterSeconds) }
          : {};
      return c.json(
        { detail: `Injected fault: status ${rule.status}` },
        rule.status as 500,
        headers,
      );
    }
    await next();
    const replaced = await applyAfter(c, rule);
    // After next() the context is finalized: a returned value would be ignored.
    if (replaced) c.res = replaced;
  };
}
