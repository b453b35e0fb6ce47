/**
 * Requests received per route, counted before authentication and faults, so tests can
 * assert "sent once", "not polled" or "one mint". Route names are the method and the
 * route pattern without the mount prefix: `GET /v1/websites/search`,
 * `PATCH /v1/collections/:collection_id`, `POST /mcp`, and for MCP also the JSON-RPC
 * method, e.g. `POST /mcp tools/call`.
 */
export class RequestStats {
  private readonly counts = new Map<string, number>();

  /** Number of requests received on `route` since start or the last reset. */
  count(route: string): number {
    return this.counts.get(normalizeRoute(route)) ?? 0;
  }

  /** Every route with its count. */
  snapshot(): Record<string, number> {
    return Object.fromEntries(this.counts);
  }

  /** Forgets every count (tests that reuse an instance). */
  reset(): void {
    this.counts.clear();
  }

  /** @internal */
  record(route: string): void {
    this.counts.set(route, (this.counts.get(route) ?? 0) + 1);
  }
}

/** Accepts `:id` as shorthand for the named parameter in a pattern (`/v1/collections/:id`). */
function normalizeRoute(route: string): string {
  return route
    .replace('/v1/collections/:id', '/v1/collections/:collection_id')
    .replace('/v1/conversations/:id/', '/v1/conversations/:conversation_id/');
}
