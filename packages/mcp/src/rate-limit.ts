import { ConfigurationError } from '@catalogkit/core';
import { rpcErrorResponse } from './request-body.js';

/** Requests per client per window; clients are told apart by `key` (the handler has no IP). */
export interface ClientRateLimit {
  /** The client's key, e.g. the address your server or proxy saw, or an API token's id. */
  key: (request: Request) => string;
  /** Requests one key may send per window. */
  limit: number;
  /** Window length in milliseconds. Default 60 000. */
  windowMs?: number;
  /**
   * Most keys remembered; the oldest is forgotten first, so memory is bounded whatever keys
   * clients send. Default 10 000.
   */
  maxClients?: number;
}

interface Window {
  startedAt: number;
  count: number;
}

function positive(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new ConfigurationError(
      `Invalid MCP handler options: rateLimit.${name} must be a positive integer, got ${String(value)}`,
    );
  }
  return value;
}

/**
 * A limiter answering 429 once a key spent its window, or undefined to let the request in.
 * @throws ConfigurationError when an option is invalid.
 */
export function rateLimiterOf(
  options: ClientRateLimit | undefined,
): (request: Request) => Response | undefined {
  if (options === undefined) return () => undefined;
  const limit = positive('limit', options.limit);
  const windowMs = positive('windowMs', options.windowMs ?? 60_000);
  const maxClients = positive('maxClients', options.maxClients ?? 10_000);
  const windows = new Map<string, Window>();
  return (request) => {
    const key = options.key(request);
    const now = Date.now();
    let window = windows.get(key);
    if (window === undefined || now - window.startedAt >= windowMs) {
      window = { startedAt: now, count: 0 };
    }
    // Re-inserted so Map order is least recently seen first.
    windows.delete(key);
    windows.set(key, window);
    if (windows.size > maxClients) {
      const oldest = windows.keys().next().value;
      if (oldest !== undefined) windows.delete(oldest);
    }
    window.count += 1;
    if (window.count <= limit) return undefined;
    const response = rpcErrorResponse(429, -32000, 'Too many requests: try again later.');
    const retryAfter = Math.ceil((window.startedAt + windowMs - now) / 1000);
    response.headers.set('Retry-After', String(Math.max(1, retryAfter)));
    return response;
  };
}
