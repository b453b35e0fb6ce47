import { ConfigurationError } from '@catalogkit/core';
import { rpcErrorResponse } from './request-body.js';

/** Which browsers and names may reach the HTTP handler (DNS rebinding, cross-site calls). */
export interface OriginPolicy {
  /**
   * Origins (`https://app.example`) allowed besides the server's own. A request whose
   * `Origin` header is present and is neither is answered 403 before any tool runs.
   */
  allowedOrigins?: readonly string[];
  /**
   * Host names (`mcp.example.com`, no port) the `Host` header may name. Default: the
   * loopback names only (`localhost`, `127.0.0.1`, `[::1]`), so a name an attacker points at
   * loopback (DNS rebinding) is refused. A remote deploy lists its own names.
   */
  allowedHosts?: readonly string[];
}

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/** The checked policy: lower-cased origins and host names. */
export interface OriginGuard {
  origins: ReadonlySet<string>;
  hosts: ReadonlySet<string>;
}

function originOf(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigurationError(
      `Invalid MCP handler options: allowedOrigins has ${JSON.stringify(value)}, not an origin`,
    );
  }
  if (url.origin === 'null' || url.origin !== value.replace(/\/$/, '').toLowerCase()) {
    throw new ConfigurationError(
      `Invalid MCP handler options: allowedOrigins has ${JSON.stringify(value)}, not an origin (scheme://host[:port])`,
    );
  }
  return url.origin;
}

function hostOf(value: string): string {
  if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)$/i.test(value)) {
    throw new ConfigurationError(
      `Invalid MCP handler options: allowedHosts has ${JSON.stringify(value)}, not a host name without port`,
    );
  }
  return value.toLowerCase();
}

/** @throws ConfigurationError when an allowed origin or host is malformed. */
export function originGuardOf(policy: OriginPolicy): OriginGuard {
  return {
    origins: new Set((policy.allowedOrigins ?? []).map(originOf)),
    hosts: new Set((policy.allowedHosts ?? LOOPBACK_HOSTS).map(hostOf)),
  };
}

/**
 * The host name of a `Host` header value (brackets kept for IPv6), or undefined unless the
 * value is exactly one host the URL parser reads back unchanged: two headers joined with a
 * comma, userinfo, whitespace or a host spelled two ways (`127.1`) are malformed, not cut.
 */
function hostNameOf(host: string): string | undefined {
  try {
    const url = new URL(`http://${host}`);
    return url.host === host.toLowerCase() ? url.hostname : undefined;
  } catch {
    return undefined;
  }
}

const forbidden = (why: string) => rpcErrorResponse(403, -32000, `Forbidden: ${why}`);

/**
 * The 400 for a malformed `Host`, the 403 for a request the policy refuses, or undefined. Host first: the server's "own"
 * origin is read from the request URL, which a rebound name controls.
 */
export function refusal(guard: OriginGuard, request: Request): Response | undefined {
  const url = new URL(request.url);
  const host = request.headers.get('host') ?? url.host;
  const hostName = hostNameOf(host);
  if (hostName === undefined) {
    return rpcErrorResponse(400, -32600, 'Bad Request: the Host header is not one host[:port].');
  }
  if (!guard.hosts.has(hostName)) return forbidden('Host is not an allowed host.');
  if (request.headers.get('sec-fetch-site') === 'cross-site') {
    return forbidden('cross-site requests are refused.');
  }
  const origin = request.headers.get('origin');
  if (origin === null) return undefined;
  const own = `${url.protocol}//${host}`.toLowerCase();
  if (origin.toLowerCase() === own || guard.origins.has(origin.toLowerCase())) return undefined;
  return forbidden('Origin is not an allowed origin.');
}
