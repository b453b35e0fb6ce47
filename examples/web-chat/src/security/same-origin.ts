/**
 * Why a request is not from this site's own page, or undefined when it is. A browser sends
 * `Origin` with every POST and `Sec-Fetch-Site` when it supports it; a cross-site form or
 * `fetch` cannot forge either. A request with neither is refused too: every browser this
 * page supports sends one, so only an old browser (or a script, which needs no forgery)
 * would lack them.
 */
export function crossSiteReason(
  request: Request,
  origins: ReadonlySet<string>,
): string | undefined {
  const site = request.headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin') {
    return 'Cross-site requests are refused (Sec-Fetch-Site is not same-origin).';
  }
  const origin = request.headers.get('origin');
  if (origin === null) {
    return site === 'same-origin' ? undefined : 'Requests without an Origin header are refused.';
  }
  return origins.has(origin) ? undefined : 'Cross-site requests are refused (foreign Origin).';
}

/**
 * The origins a page of this server is served from: the ones configured, or else the one
 * the request was addressed to (its Host). Set them explicitly in production: a Host-derived
 * origin does not stop DNS rebinding.
 */
export function allowedOrigins(request: Request, configured: readonly string[] | undefined) {
  return new Set(configured ?? [new URL(request.url).origin]);
}
